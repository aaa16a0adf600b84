'use strict';
// Opens the pages `mtgr render` wrote in real Chromium (playwright-core) and records what a
// reader sees. Called by tests/vscode/test_render_pages.py:
//
//   node pages.js CONFIG.json
//
// CONFIG: { chromium, profile, artifacts, pages: [{ name, board, replay, lines, probe }],
// screenshots: { board, dark, replay } }. For each record: the board page (players, life,
// tapped cards, the stack, hidden cards) and the replay page, stepped through every line
// with the arrow key, then moved with the slider to `probe`. Console errors and page errors
// are collected per page. Writes RESULT.json next to CONFIG.

const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { chromium } = require('playwright-core');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const resultPath = path.join(path.dirname(process.argv[2]), 'result.json');
const result = { pages: {} };

function save() {
  fs.writeFileSync(resultPath, JSON.stringify(result, null, 2));
}

// what the board on the page shows
function seen(root) {
  const scope = root ? document.querySelector(root) : document;
  const players = {};
  for (const section of scope.querySelectorAll('section.player')) {
    const names = (selector) =>
      [...section.querySelectorAll(selector)].map((n) => n.textContent.trim());
    players[section.dataset.player] = {
      life: section.querySelector('.player-head .life').textContent.trim(),
      tapped: names('.card.tapped .name'),
      cards: names('.card .name'),
      backs: section.querySelectorAll('.zone.hand .card.back').length,
    };
  }
  const stack = [...scope.querySelectorAll('section.stack .card')].map((n) => n.title);
  const where = scope.querySelector('.board-head .where');
  return { players, stack, where: where ? where.textContent : null };
}

async function watch(page, errors) {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error}`));
  page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()}`));
}

async function boardPage(context, entry, shots) {
  const page = await context.newPage();
  const errors = [];
  await watch(page, errors);
  await page.goto(pathToFileURL(entry.board).href);
  await page.locator('.mtgr-board').waitFor();
  const light = await page.evaluate(seen);
  const background = await page.evaluate(() => getComputedStyle(document.querySelector('.mtgr-board')).backgroundColor);
  if (shots.board) await page.screenshot({ path: shots.board, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  const darkBackground = await page.evaluate(() => getComputedStyle(document.querySelector('.mtgr-board')).backgroundColor);
  if (shots.dark) await page.screenshot({ path: shots.dark, fullPage: true });
  await page.close();
  return { ...light, errors, background, darkBackground };
}

async function replayPage(context, entry, shots) {
  const page = await context.newPage();
  const errors = [];
  await watch(page, errors);
  await page.goto(pathToFileURL(entry.replay).href);
  await page.locator('#board .board-head').waitFor();
  const steps = [];
  const start = await page.evaluate(() => document.body.dataset.line);
  // every line with the arrow key, as a reader steps through the game
  await page.locator('#board').click({ position: { x: 2, y: 2 } });
  for (let line = 2; line <= entry.lines; line++) {
    await page.keyboard.press('ArrowRight');
    const shown = await page.evaluate(() => ({
      line: document.body.dataset.line,
      where: document.querySelector('#where').textContent,
      head: document.querySelector('#board .board-head .where').textContent,
      current: document.querySelector('#record li.current').textContent,
      slider: document.querySelector('#slider').value,
    }));
    steps.push(shown);
  }
  const lastKey = await page.evaluate(() => document.body.dataset.line);
  await page.keyboard.press('ArrowRight'); // past the end: stays on the last line
  const pastEnd = await page.evaluate(() => document.body.dataset.line);
  // the slider moved to a line with the mouse's keyboard twin: focus, then set and input
  const slider = page.locator('#slider');
  await slider.focus();
  await page.keyboard.press('Home');
  const home = await page.evaluate(() => document.body.dataset.line);
  await slider.evaluate((input, line) => {
    input.value = String(line);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, entry.probe);
  await page.waitForFunction((line) => document.body.dataset.line === String(line), entry.probe);
  const probe = await page.evaluate(seen, '#board');
  if (shots.replay) await page.screenshot({ path: shots.replay });
  // the turn list jumps to the start of a turn
  const turns = await page.$$eval('#turn option', (all) => all.filter((o) => o.value).map((o) => [o.value, o.textContent]));
  let jumped = null;
  if (turns.length) {
    await page.selectOption('#turn', turns[turns.length - 1][0]);
    jumped = await page.evaluate(() => document.body.dataset.line);
  }
  const ticks = await page.$$eval('.tick', (all) => all.map((t) => t.dataset.line));
  let ticked = null;
  if (ticks.length) {
    await page.locator('.tick').first().click();
    ticked = await page.evaluate(() => document.body.dataset.line);
  }
  await page.close();
  return { errors, start, steps, lastKey, pastEnd, home, probe, turns, jumped, ticks, ticked };
}

async function main() {
  fs.mkdirSync(config.artifacts, { recursive: true });
  const context = await chromium.launchPersistentContext(config.profile, {
    executablePath: config.chromium,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  // nothing may come from the network: every request but the page file itself fails
  await context.route(/^(?!file:)/, (route) => route.abort());
  try {
    for (const entry of config.pages) {
      const shots = entry.screenshots || {};
      const record = { ok: false };
      result.pages[entry.name] = record;
      try {
        record.board = await boardPage(context, entry, shots);
        record.replay = await replayPage(context, entry, shots);
        record.ok = true;
      } catch (error) {
        record.error = String((error && error.stack) || error);
      }
      save();
    }
  } finally {
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
