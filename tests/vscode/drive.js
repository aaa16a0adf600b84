'use strict';
// Drives code-server (already running, with the mtgr extension installed) in headless
// Chromium through playwright-core, the way a user would: open a record from the Explorer,
// then look at what the page shows. Called by tests/vscode/test_code_server.py:
//
//   node drive.js CONFIG.json
//
// CONFIG: { url, chromium, profile, artifacts, successScreenshot, file }. Writes
// RESULT.json next to CONFIG: per step, `ok` and what was seen (texts, classes), which the
// pytest test asserts on; a failed step leaves ARTIFACTS/fail-STEP.png. Every wait is on
// DOM state (a selector, a text appearing), never a fixed sleep.

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const resultPath = path.join(path.dirname(process.argv[2]), 'result.json');
const result = { steps: {}, log: [] };
const started = Date.now();

function note(message) {
  const line = `${((Date.now() - started) / 1000).toFixed(1)}s ${message}`;
  result.log.push(line);
  console.log(line);
}

function save() {
  fs.writeFileSync(resultPath, JSON.stringify(result, null, 2));
}

// ---- editor helpers --------------------------------------------------------------------

const EDITOR = '.editor-instance .monaco-editor';

// F1 (the command palette), the command typed in, its row clicked; done when the palette has gone, or, for a
// command that asks for input, when its own input box (`asks`: a selector) is shown in the same widget
async function runCommand(page, label, asks = null) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${label}`);
  const row = page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .filter({ hasText: label })
    .first();
  await row.waitFor({ state: 'visible' });
  await row.click();
  if (asks) {
    await page.locator(asks).waitFor({ state: 'visible' });
  } else {
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }
}

// Ctrl+G, the line number; done when the status bar shows the cursor on it
async function goToLine(page, line) {
  await page.keyboard.press('Escape');
  await page.locator(`${EDITOR} textarea`).first().focus();
  await page.keyboard.press('Control+g');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
  await page
    .locator('#status\\.editor\\.selection')
    .filter({ hasText: new RegExp(`Ln ${line}, Col`) })
    .waitFor({ state: 'visible' });
}

// the screen rectangle of `word` in the rendered editor line that starts with `linePrefix`
async function wordBox(page, linePrefix, word) {
  const handle = await page.waitForFunction(
    ({ editor, linePrefix, word }) => {
      const norm = (s) => s.replace(/\u00a0/g, ' ');
      // the line as written: without inlay hints (spans with dyn-rule classes)
      const spans = (line) =>
        [...line.querySelectorAll(':scope > span > span')].filter(
          (s) => !s.className.includes('dyn-rule'),
        );
      for (const line of document.querySelectorAll(`${editor} .view-line`)) {
        const text = norm(spans(line).map((s) => s.textContent).join(''));
        if (!text.startsWith(linePrefix)) continue;
        for (const span of spans(line)) {
          const node = span.firstChild;
          if (!node || node.nodeType !== Node.TEXT_NODE) continue;
          const escaped = word.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');
          const at = norm(node.data).search(new RegExp(`(?<![\\w#])${escaped}(?![\\w])`));
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + word.length);
          const r = range.getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2, width: r.width };
        }
      }
      return null;
    },
    { editor: EDITOR, linePrefix, word },
  );
  return handle.jsonValue();
}

// the token spans of the rendered line that starts with `linePrefix`: [text, class]
async function lineTokens(page, linePrefix) {
  return page.$$eval(
    `${EDITOR} .view-line`,
    (lines, linePrefix) => {
      const norm = (s) => s.replace(/\u00a0/g, ' ');
      const spans = (line) =>
        [...line.querySelectorAll(':scope > span > span')].filter(
          (s) => !s.className.includes('dyn-rule'),
        );
      const line = lines.find((l) =>
        norm(spans(l).map((s) => s.textContent).join('')).startsWith(linePrefix),
      );
      if (!line) return null;
      return spans(line).map((s) => [norm(s.textContent), s.className]);
    },
    linePrefix,
  );
}

// ---- the board view ---------------------------------------------------------------------

// the frame of the board webview (nested iframes): the one whose page has #board
async function boardFrame(page) {
  for (let attempt = 0; attempt < 600; attempt++) {
    for (const frame of page.frames()) {
      try {
        if (await frame.evaluate(() => !!document.getElementById('board'))) return frame;
      } catch (_) {
        // a frame that went away while we asked
      }
    }
    await page.waitForTimeout(100);
  }
  throw new Error('no board webview frame');
}

// what the board view shows, once it shows `line`
async function boardAt(frame, line) {
  await frame.waitForFunction((n) => document.body.dataset.line === String(n), line, {
    timeout: 60_000,
  });
  return frame.evaluate(() => {
    const life = {};
    for (const section of document.querySelectorAll('section.player')) {
      life[section.dataset.player] = section.querySelector('.life').textContent;
    }
    const board = document.querySelector('.mtgr-board');
    const root = getComputedStyle(document.documentElement);
    return {
      line: document.body.dataset.line,
      where: document.querySelector('.board-head .where').textContent,
      text: document.querySelector('.line code').textContent,
      life,
      tapped: [...document.querySelectorAll('.card.tapped')].map((n) => n.title),
      stack: [...document.querySelectorAll('section.stack .card')].map((n) => n.title),
      background: getComputedStyle(board).backgroundColor,
      themeBackground: root.getPropertyValue('--vscode-editor-background').trim(),
    };
  });
}

async function boardView(page, board) {
  await goToLine(page, board.first);
  await runCommand(page, 'mtgr: Show Board');
  const frame = await boardFrame(page);
  const first = await boardAt(frame, board.first);
  // the cursor moves: the view follows
  let started = Date.now();
  await goToLine(page, board.second);
  const second = await boardAt(frame, board.second);
  const followMs = Date.now() - started;
  // an edit: a new line below `first`, typed; the view shows it with its effect
  await goToLine(page, board.first);
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  started = Date.now();
  await page.keyboard.type(board.typed);
  const edited = await boardAt(frame, board.first + 1);
  await frame.waitForFunction(
    (typed) => document.querySelector('.line code').textContent === typed,
    board.typed,
    { timeout: 60_000 },
  );
  const afterEdit = await boardAt(frame, board.first + 1);
  const editMs = Date.now() - started;
  // one key press to the view showing the new line (the board view's own latency, with
  // this page's polling; recorded for the report, not asserted)
  const keyMs = [];
  for (let line = board.first + 1; line > board.first - 5; line--) {
    const t0 = Date.now();
    await page.keyboard.press('ArrowUp');
    await frame.waitForFunction((n) => document.body.dataset.line === String(n), line - 1, {
      polling: 'raf',
      timeout: 60_000,
    });
    keyMs.push(Date.now() - t0);
  }
  if (board.screenshot) {
    await goToLine(page, board.second);
    await boardAt(frame, board.second);
    await page.screenshot({ path: board.screenshot });
  }
  return { first, second, edited, afterEdit, followMs, editMs, keyMs };
}

// ---- the scenario -----------------------------------------------------------------------

async function step(page, name, body) {
  note(`${name} ...`);
  const t0 = Date.now();
  const entry = { ok: false };
  result.steps[name] = entry;
  try {
    Object.assign(entry, await body());
    entry.ok = true;
  } catch (error) {
    entry.error = String((error && error.stack) || error);
    const shot = path.join(config.artifacts, `fail-${name}.png`);
    try {
      await page.screenshot({ path: shot });
      entry.screenshot = shot;
    } catch (_) {
      // the page is gone: nothing to show
    }
  }
  entry.seconds = (Date.now() - t0) / 1000;
  note(`${name} ${entry.ok ? 'ok' : 'FAILED'} (${entry.seconds}s)`);
  save();
  return entry.ok;
}

async function main() {
  fs.mkdirSync(config.artifacts, { recursive: true });
  const context = await chromium.launchPersistentContext(config.profile, {
    executablePath: config.chromium,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(60_000);
  const file = config.file;

  try {
    const opened = await step(page, 'open', async () => {
      await page.goto(config.url);
      const row = page.locator(`.explorer-folders-view .monaco-list-row[aria-label*="${file}"]`);
      await row.waitFor({ state: 'visible' });
      // the Explorer can be drawn before it reacts to clicks: click until the tab is there
      const tab = page.locator(`.tabs-container .tab[aria-label*="${file}"]`);
      for (let attempt = 1; ; attempt++) {
        await row.click();
        try {
          await tab.waitFor({ state: 'visible', timeout: 5_000 });
          break;
        } catch (error) {
          if (attempt >= 6) throw error;
        }
      }
      await page.locator(`${EDITOR} .view-line`).first().waitFor({ state: 'visible' });
      return {};
    });
    if (!opened) return;

    await step(page, 'squiggles', async () => {
      // only the lines in view are drawn: go to the first mistake
      await goToLine(page, config.squiggleLine);
      await page.locator(`${EDITOR} .squiggly-error`).first().waitFor({ timeout: 150_000 });
      return { count: await page.locator(`${EDITOR} .squiggly-error`).count() };
    });

    await step(page, 'problems', async () => {
      await runCommand(page, 'Focus Problems');
      const rows = page.locator('.markers-panel .monaco-list-row');
      // wait until every code asked for is in the panel
      await page.waitForFunction(
        (codes) => {
          const text = [...document.querySelectorAll('.markers-panel .monaco-list-row')]
            .map((r) => r.textContent)
            .join('\n');
          return codes.every((c) => text.includes(c));
        },
        config.codes,
      );
      const seen = await rows.evaluateAll((all) =>
        all.map((r) => ({ aria: r.getAttribute('aria-label'), text: r.textContent })),
      );
      const badge = await page
        .locator('.panel .composite-bar .badge-content, .panel .action-item .badge-content')
        .allTextContents();
      return { rows: seen, badge };
    });

    await step(page, 'hover', async () => {
      // the Problems panel stays open: the screenshot shows squiggles, hover and rows
      await goToLine(page, config.hover.revealLine);
      const box = await wordBox(page, config.hover.linePrefix, 'replacement');
      await page.mouse.move(box.x, box.y);
      const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content');
      await hover.filter({ hasText: '614.6' }).first().waitFor({ state: 'visible' });
      const text = await hover.first().innerText();
      const hints = await page.$$eval(`${EDITOR} .view-line span[class*="dyn-rule"]`, (all) =>
        all.map((s) => s.textContent.replace(/\u00a0/g, ' ')).filter((t) => t.trim()),
      );
      const squigglesInView = await page.locator(`${EDITOR} .squiggly-error`).count();
      if (config.successScreenshot) {
        fs.mkdirSync(path.dirname(config.successScreenshot), { recursive: true });
        await page.screenshot({ path: config.successScreenshot });
      }
      await page.mouse.move(5, 5);
      return { text, squigglesInView, hints };
    });

    await step(page, 'tokens', async () => {
      const tokens = await lineTokens(page, config.hover.linePrefix);
      const scopes = {};
      let first = true;
      for (const word of config.inspect) {
        const box = await wordBox(page, config.hover.linePrefix, word);
        await page.mouse.click(box.x, box.y);
        if (first) {
          await runCommand(page, 'Developer: Inspect Editor Tokens and Scopes');
          first = false;
        }
        // the widget follows the cursor: wait until it describes this word
        const widget = page.locator('.token-inspect-widget');
        await widget.filter({ hasText: word }).first().waitFor({ state: 'visible' });
        await widget.filter({ hasText: 'textmate scopes' }).first().waitFor({ state: 'visible' });
        scopes[word] = await widget.first().innerText();
      }
      await page.keyboard.press('Escape');
      return { tokens, scopes };
    });

    await step(page, 'completion', async () => {
      await goToLine(page, config.completion.line);
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.type(config.completion.typed);
      const widget = page.locator('.suggest-widget.visible');
      await widget.waitFor({ state: 'visible' });
      const labels = async () =>
        widget.locator('.monaco-list-row .label-name').allTextContents();
      await widget
        .locator('.monaco-list-row .label-name')
        .filter({ hasText: config.completion.expect })
        .first()
        .waitFor({ state: 'visible' });
      const shown = await labels();
      await page.keyboard.press('Escape');
      return { labels: shown };
    });

    if (config.board) {
      await step(page, 'board', async () => boardView(page, config.board));
    }

    // `mtgr explain CODE` in an editor (a content provider's document: read-only): from the command palette, then from the
    // code's link in the Problems panel
    const explained = async () => {
      const tab = page.locator(`.tabs-container .tab[aria-label*="${config.explain}.md"]`);
      await tab.waitFor({ state: 'visible' });
      const lines = page.locator(`${EDITOR} .view-line`);
      await lines.filter({ hasText: 'What it flags' }).first().waitFor({ state: 'visible' });
      const text = (await lines.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
      return { text, tab: await tab.getAttribute('aria-label') };
    };

    await step(page, 'explainCommand', async () => {
      // the palette's widget stays up for the command's own input box: wait for its placeholder, not for it to hide
      const asks = '.quick-input-widget .quick-input-box input[placeholder="R601"]';
      await runCommand(page, 'mtgr: Explain Diagnostic Code', asks);
      await page.locator(asks).fill(config.explain);
      await page.keyboard.press('Enter');
      return explained();
    });

    await step(page, 'explainLink', async () => {
      // close the explanation only: closing the record would clear its diagnostics
      await runCommand(page, 'View: Close Editor');
      await runCommand(page, 'Focus Problems');
      const link = page.locator('.markers-panel .monaco-list-row a').filter({ hasText: config.explain });
      await link.first().waitFor({ state: 'visible' });
      const href = await link.first().getAttribute('href');
      await link.first().click();
      return { href, ...(await explained()) };
    });
  } finally {
    note('closing the browser');
    await context.close();
    save();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    result.error = String((error && error.stack) || error);
    save();
    console.error(error);
    process.exit(1);
  },
);
