'use strict';
// The TextMate grammar of .mtgr (syntaxes/mtgr.tmLanguage.json) and its Markdown injection,
// run by the engine VS Code uses. Run: cd tests/grammar && npm ci && node --test

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, loadGrammar, tokenizeLines, mtgrBlocks } = require('./engine');

const INVALID = 'invalid.illegal.mtgr';
const PLAYER = 'entity.name.type.player.mtgr';
const CARD = 'string.quoted.double.card.mtgr';
const TEXT = 'string.quoted.double.mtgr';
const VERB = 'support.function.verb.mtgr';

// [line, token text, expected scope, which occurrence of the text (0 = first)]
// Every token of the span must carry the scope. Unless the scope is the invalid one, no
// token of the whole line may be invalid.
const TABLE = [
  // structure and header keywords, with what follows them
  ['mtgr 0.4', 'mtgr', 'keyword.control.mtgr.mtgr'],
  ['mtgr 0.4', '0.4', 'constant.numeric.version.mtgr'],
  ['mtgr 0.4.1', '0.4.1', 'constant.numeric.version.mtgr'],
  ['title "Modern league, round 2"', 'title', 'keyword.control.title.mtgr'],
  ['title "Modern league, round 2"', '"Modern league, round 2"', TEXT],
  ['rules 2026-09-25', 'rules', 'keyword.control.rules.mtgr'],
  ['rules 2026-09-25', '2026-09-25', 'constant.numeric.date.mtgr'],
  ['player "Alice" deck 60', 'player', 'keyword.control.player.mtgr'],
  ['player "Alice" deck 60', '"Alice"', PLAYER],
  ['player "Alice" deck 60', 'deck', 'keyword.other.deck.mtgr'],
  ['player "Alice" deck 60', '60', 'constant.numeric.integer.mtgr'],
  ['perspective "Alice"', 'perspective', 'keyword.control.perspective.mtgr'],
  ['perspective "Alice"', '"Alice"', PLAYER],
  ['perspective all', 'all', 'constant.language.all.mtgr'],
  ['start "Bob" by "Bob"', 'start', 'keyword.control.start.mtgr'],
  ['start "Bob" by "Bob"', '"Bob"', PLAYER, 0],
  ['start "Bob" by "Bob"', '"Bob"', PLAYER, 1],
  ['game 2', 'game', 'keyword.control.game.mtgr'],
  ['game 2', '2', 'constant.numeric.integer.mtgr'],
  ['turn 3 "Alice" by #9', 'turn', 'keyword.control.turn.mtgr'],
  ['turn 3 "Alice" by #9', '3', 'constant.numeric.integer.mtgr'],
  ['turn 3 "Alice" by #9', '"Alice"', PLAYER],
  ['turn 3 "Alice" by #9', '#9', 'variable.other.object.mtgr'],
  ['phase combat', 'phase', 'keyword.control.phase.mtgr'],
  ['phase beginning', 'beginning', 'support.constant.phase.mtgr'],
  ['phase main by #3', 'main', 'support.constant.phase.mtgr'],
  ['phase combat', 'combat', 'support.constant.phase.mtgr'],
  ['phase ending', 'ending', 'support.constant.phase.mtgr'],
  ['step upkeep', 'step', 'keyword.control.step.mtgr'],
  ['step untap', 'untap', 'support.constant.step.mtgr'],
  ['step upkeep', 'upkeep', 'support.constant.step.mtgr'],
  ['step draw', 'draw', 'support.constant.step.mtgr'],
  ['step beginning-of-combat', 'beginning-of-combat', 'support.constant.step.mtgr'],
  ['step declare-attackers', 'declare-attackers', 'support.constant.step.mtgr'],
  ['step declare-blockers', 'declare-blockers', 'support.constant.step.mtgr'],
  ['step combat-damage', 'combat-damage', 'support.constant.step.mtgr'],
  ['step end-of-combat', 'end-of-combat', 'support.constant.step.mtgr'],
  ['step end', 'end', 'support.constant.step.mtgr'],
  ['step cleanup by #4', 'cleanup', 'support.constant.step.mtgr'],
  ['incomplete', 'incomplete', 'keyword.control.incomplete.mtgr'],
  ['keyframe', 'keyframe', 'keyword.control.keyframe.mtgr'],
  ['end', 'end', 'keyword.control.end.mtgr'],
  ['  end   // indented, trailing space', 'end', 'keyword.control.end.mtgr'],

  // objects, inline identifying names, card names
  ['#12 tap', '#12', 'variable.other.object.mtgr'],
  ['#1 "Chancellor of the Annex" reveal by #1', '"Chancellor of the Annex"',
    'string.quoted.double.card.identify.mtgr'],
  ['#1 "Chancellor of the Annex" reveal by #1', 'reveal', VERB],
  ['#3 new card "Forest" battlefield "Alice" by #2', '"Forest"', CARD],
  ['#3 new card "Forest" battlefield "Alice" by #2', 'card', 'storage.type.object.mtgr'],
  ['#4 new hidden library "Bob" top 2', 'hidden', 'storage.type.object.mtgr'],
  ['#5 new token "Goblin" battlefield "Bob" by #4', 'token', 'storage.type.object.mtgr'],
  ['#5 new token "Goblin" battlefield "Bob" by #4', '"Goblin"', CARD],
  ['#6 new copy of #5 stack "Bob" by #4', 'copy', 'storage.type.object.mtgr'],
  ['#6 new copy of #5 stack "Bob" by #4', 'of', 'keyword.other.of.mtgr'],
  ['#6 new copy of #5 stack "Bob" by #4', '"Bob"', PLAYER],
  ['#7 identify "Leyline of the Void" by #7', '"Leyline of the Void"', CARD],
  ['"Alice" draw #8 "Serum Powder"', '"Serum Powder"', CARD],

  // players: the line's first token and after by, target, attack, control, cast, zones, ->
  ['"Alice" draw #8 "Serum Powder"', '"Alice"', PLAYER],
  ['"Alice" keep', '"Alice"', PLAYER],
  ['#2 tap by "Bob"', '"Bob"', PLAYER],
  ['#9 target #3 "Alice" "Bob"', '"Alice"', PLAYER],
  ['#9 target #3 "Alice" "Bob"', '"Bob"', PLAYER],
  ['#9 target #3 "Alice" "Bob"', '#3', 'variable.other.object.mtgr'],
  ['#10 attack "Bob" untapped', '"Bob"', PLAYER],
  ['#10 attack "Bob" untapped', 'untapped', 'storage.modifier.untapped.mtgr'],
  ['#10 attack #11', '#11', 'variable.other.object.mtgr'],
  ['#10 control "Bob" by #12', '"Bob"', PLAYER],
  ['#6 cast "Bob" from exile by "Bob"', '"Bob"', PLAYER, 0],
  ['#6 cast "Bob" from exile by "Bob"', '"Bob"', PLAYER, 1],
  ['#20 move hand -> battlefield "Alice" by #15', '"Alice"', PLAYER],
  ['#8 damage 3 -> "Bob"', '"Bob"', PLAYER],
  ['"Alice" search library "Bob" by #5', '"Bob"', PLAYER],
  ['"Alice" shuffle library by #5', 'library', 'support.constant.zone.mtgr'],
  ['"Alice" life 20', 'life', VERB],

  // verbs
  ...[
    'new card "X" hand', 'move hand -> graveyard', 'identify "X"', 'reveal', 'cast', 'play',
    'activate of #2', 'trigger of #2', 'target #2', 'choose 2', 'pay {G}', 'resolve', 'fizzle',
    'countered by #2', 'tap', 'untap', 'attack "Bob"', 'block #2', 'damage 2 -> #3',
    'counters +1 loyalty by #2', 'effect "x"', 'control "Bob"',
  ].map((phrase) => [`#1 ${phrase}`, phrase.split(' ')[0], VERB]),
  ...[
    'draw #1', 'life -3 by #2', 'counters +1 poison by #2', 'search library by #2',
    'shuffle library by #2', 'roll d20 6', 'mulligan', 'keep', 'concede', 'lose by sba', 'win',
    'library 40', 'mana {G} by #2',
  ].map((phrase) => [`"Bob" ${phrase}`, phrase.split(' ')[0], VERB]),
  // mana added to a pool (decision 0071); an activation an effect allows (decision 0070)
  ['"Alice" mana {B}{B}{B} by #9', '{B}{B}{B}', 'constant.language.mana.mtgr'],
  ['#21 activate of #8 by #30', '#30', 'variable.other.object.mtgr'],
  ['#4 cast split-second', 'split-second', 'storage.modifier.split-second.mtgr'],
  ['#18 trigger of #6 by #17', '#17', 'variable.other.object.mtgr'],
  ['#12 stays tapped by #40', 'stays', VERB],
  ['#7 leaves combat by #20', 'leaves', VERB],
  ['#7 leaves combat by #20', 'combat', 'keyword.other.combat.mtgr'],
  ['#5 effect "x" until leaves', 'leaves', 'support.constant.duration.mtgr'],
  ['#12 stays tapped by #40', 'tapped', 'storage.modifier.tapped.mtgr'],
  ['#2 damage 1 -> #5 double-strike', 'double-strike', 'storage.modifier.double-strike.mtgr'],
  ['#3 damage 3 -> "Bob" trample', 'trample', 'storage.modifier.trample.mtgr'],
  ['#4 damage 5 -> "Bob" by #4', '#4', 'variable.other.object.mtgr', 1],
  ['#4 cast from graveyard flashback split-second', 'split-second', 'storage.modifier.split-second.mtgr'],

  // zones and positions, the arrow
  ...['library', 'hand', 'graveyard', 'battlefield', 'stack', 'exile', 'command'].map(
    (zone) => [`#1 move hand -> ${zone} "Alice"`, zone, 'support.constant.zone.mtgr']),
  ['#1 move hand -> library "Alice" top 3 by "Alice"', 'top', 'support.constant.position.mtgr'],
  ['#1 move hand -> library "Alice" top 3 by "Alice"', '3', 'constant.numeric.integer.mtgr'],
  ['#20 move hand -> library bottom by "Alice"', 'bottom', 'support.constant.position.mtgr'],
  ['#20 move hand -> library bottom by "Alice"', '->', 'keyword.operator.arrow.mtgr'],
  ['#4 resolve -> battlefield', '->', 'keyword.operator.arrow.mtgr'],

  // as kinds, causes, replacements, tapped, cast modes
  ...['discard', 'sacrifice', 'destroy', 'mill'].map(
    (kind) => [`#21 move hand -> graveyard as ${kind} by #18`, kind, 'storage.type.kind.mtgr']),
  ['#21 move hand -> exile as discard by #18 replacement #15', 'as', 'keyword.other.as.mtgr'],
  ['#21 move hand -> exile as discard by #18 replacement #15', 'by', 'keyword.other.by.mtgr'],
  ['#21 move hand -> exile as discard by #18 replacement #15', 'replacement',
    'keyword.other.replacement.mtgr'],
  ['#21 move hand -> exile as discard by #18 replacement #15 #16', '#16',
    'variable.other.object.mtgr'],
  ['#3 move battlefield -> graveyard by sba', 'sba', 'constant.language.sba.mtgr'],
  ['#3 play tapped by "Alice"', 'tapped', 'storage.modifier.tapped.mtgr'],
  ['#3 move library -> battlefield tapped by #2', 'tapped', 'storage.modifier.tapped.mtgr'],
  ['#6 cast from graveyard flashback by "Bob"', 'flashback', 'storage.modifier.cast-mode.mtgr'],
  ['#6 cast dash', 'dash', 'storage.modifier.cast-mode.mtgr'],
  ['#6 cast from graveyard flashback by "Bob"', 'from', 'keyword.other.from.mtgr'],

  // numbers, signed amounts, counters, mana, dice, effects
  ['"Bob" life -3 by #12', '-3', 'constant.numeric.integer.signed.mtgr'],
  ['"Bob" life +2 by #12', '+2', 'constant.numeric.integer.signed.mtgr'],
  ['#16 counters +1 +1/+1 by #16', '+1', 'constant.numeric.integer.signed.mtgr'],
  ['#16 counters +1 +1/+1 by #16', '+1/+1', 'support.type.counter.mtgr'],
  ['#16 counters -2 -1/-1 by #3', '-1/-1', 'support.type.counter.mtgr'],
  ['#16 counters +1 luck by #16', 'luck', 'support.type.counter.mtgr'],
  ['"Bob" counters +1 poison by #3', 'poison', 'support.type.counter.mtgr'],
  ['#4 battlefield "Alice" tapped counters 2 +1/+1', 'counters', 'keyword.other.counters.mtgr'],
  ['#4 battlefield "Alice" tapped counters 2 +1/+1', '2', 'constant.numeric.integer.mtgr'],
  ['#4 battlefield "Alice" tapped counters 2 +1/+1', '+1/+1', 'support.type.counter.mtgr'],
  ['"Alice" counters 3 poison', 'poison', 'support.type.counter.mtgr'],
  ['#7 pay {1}{G} life 2 "discard a card"', '{1}{G}', 'constant.language.mana.mtgr'],
  ['#7 pay {W/U}{2/B}', '{W/U}{2/B}', 'constant.language.mana.mtgr'],
  ['#7 pay {1}{G} life 2 "discard a card"', 'life', 'keyword.other.life.mtgr'],
  ['#7 pay {1}{G} life 2 "discard a card"', '"discard a card"', TEXT],
  ['#7 choose #3 "left" 2 by "Bob"', '"left"', TEXT],
  ['#7 choose #3 "left" 2 by "Bob"', '2', 'constant.numeric.integer.mtgr'],
  ['#7 choose #3 "left" 2 by "Bob"', '"Bob"', PLAYER],
  ['"Alice" roll d20 6', 'd20', 'support.type.die.mtgr'],
  ['#8 effect "gets +2/+2" on #3 until end-of-turn', '"gets +2/+2"', TEXT],
  ['#8 effect "gets +2/+2" on #3 until end-of-turn', 'on', 'keyword.other.on.mtgr'],
  ['#8 effect "gets +2/+2" on #3 until end-of-turn', 'until', 'keyword.other.until.mtgr'],
  ['#8 effect "gets +2/+2" on #3 until end-of-turn', 'end-of-turn',
    'support.constant.duration.mtgr'],
  ['#8 effect "x" until leaves', 'leaves', 'support.constant.duration.mtgr'],

  // strings and escapes
  ['title "The \\"Ur\\" deck"', '\\"', 'constant.character.escape.mtgr'],
  ['title "The \\"Ur\\" deck"', '"The \\"Ur\\" deck"', TEXT],
  ['player "A\\\\B"', '\\\\', 'constant.character.escape.mtgr'],
  ['player "A\\\\B"', '"A\\\\B"', PLAYER],
  ['#3 new card "Forest // Mountain" hand', '"Forest // Mountain"', CARD],
  ['title "a"', '"', 'punctuation.definition.string.begin.mtgr', 0],
  ['title "a"', '"', 'punctuation.definition.string.end.mtgr', 1],

  // comments and allow
  ['// a comment', '// a comment', 'comment.line.double-slash.mtgr'],
  ['// a comment', '//', 'punctuation.definition.comment.mtgr'],
  ['#3 tap by #2 // tapped for mana', '// tapped for mana', 'comment.line.double-slash.mtgr'],
  ['#3 tap by #2// no space', '// no space', 'comment.line.double-slash.mtgr'],
  ['#3 tap // allow D804, N105', 'allow', 'keyword.control.directive.allow.mtgr'],
  ['#3 tap // allow D804, N105', 'D804', 'constant.language.diagnostic-code.mtgr'],
  ['#3 tap // allow D804, N105', 'N105', 'constant.language.diagnostic-code.mtgr'],
  ['#3 tap // allow D804, N105', 'D804, N105', 'comment.line.double-slash.mtgr'],
  ['#3 tap // judge: allow: R12', 'R12', 'constant.language.diagnostic-code.mtgr'],

  // invalid tokens
  ['#8 blah', 'blah', INVALID],
  ['#8 tap blah by #2', 'blah', INVALID],
  ['"Alice" frobnicate', 'frobnicate', INVALID],
  ['#8 draw', 'draw', INVALID], // a player verb in an object line
  ['"Alice" move', 'move', INVALID], // an object verb in a player line
  ['#8 upkeep', 'upkeep', INVALID],
  ['"Alice" keep "Bob"', '"Bob"', INVALID],
  ['draw #1', 'draw', INVALID], // a line starts with an object, a player or a keyword
  ['foo bar', 'foo', INVALID],
  ['#12x tap', '#12x', INVALID],
  ['#1234567890 tap', '#1234567890', INVALID], // at most 9 digits
  ['"Bob" life -1234567890', '-1234567890', INVALID],
  ['#1 tap#2', 'tap#2', INVALID],
  ['"Alice" draw #1 "unterminated // not a comment', '"unterminated // not a comment', INVALID],
  ['"Alice"x keep', '"Alice"x', INVALID],
  ['step lunch', 'lunch', INVALID],
  ['phase upkeep', 'upkeep', INVALID],
  ['mtgr four', 'four', INVALID],
  ['turn 3 "Alice" extra', 'extra', INVALID],
  ['end now', 'now', INVALID],
  ['#1 move hand -> graveyard as banish by #2', 'banish', INVALID],
  ['#1 effect "x" until dawn', 'dawn', INVALID],
  ['#1 move hand -> graveyard sba', 'sba', INVALID],
  ['#1 new flavor', 'flavor', INVALID],
  ['#1 move hand -> graveyard dash', 'dash', INVALID], // cast modes only after cast
  // decisions 0060 to 0062: a keyframe's damage, the legend rule's choice, the Ring
  ['#41 battlefield "Alice" tapped damage 2', 'damage', 'keyword.other.damage.mtgr'],
  ['#41 battlefield "Alice" tapped damage 2', '2', 'constant.numeric.integer.mtgr'],
  ['#20 damage 2 -> #41', 'damage', VERB],
  ['"Alice" choose #8 by sba', 'choose', VERB],
  ['"Alice" choose #8 by sba', '#8', 'variable.other.object.mtgr'],
  ['"Alice" choose #8 by sba', 'sba', 'constant.language.sba.mtgr'],
  ['"Alice" ring-bearer #30 by #29', 'ring-bearer', VERB],
  ['"Alice" ring-bearer #30 by #29', '#30', 'variable.other.object.mtgr'],
  ['"Bob" ring-bearer #7 tempted 2', 'tempted', 'keyword.other.tempted.mtgr'],
  ['"Bob" ring-bearer #7 tempted 2', '2', 'constant.numeric.integer.mtgr'],
  ['"Alice" monarch', 'monarch', VERB],
  ['"Alice" venture "Secret Entrance" by #40', 'venture', VERB],
  ['"Alice" venture "Secret Entrance" by #40', '"Secret Entrance"', TEXT],
  ['#41 complete by sba', 'complete', VERB],
  ['#5 "Fire // Ice" cast half "Ice"', 'half', 'keyword.other.half.mtgr'],
  ['#5 "Fire // Ice" cast half "Ice"', '"Ice"', CARD],
  ['#4 cast fuse', 'fuse', 'storage.modifier.cast-mode.mtgr'],
  ['#7 flip by #8', 'flip', VERB],
  ['#7 battlefield "Alice" flipped', 'flipped', 'storage.modifier.flipped.mtgr'],
  ['#30 meld #31 by #32', 'meld', VERB],
  ['#30 meld #31 by #32', '#31', 'variable.other.object.mtgr'],
  ['#30 battlefield "Alice" back melded #31', 'melded', 'storage.modifier.melded.mtgr'],
];

function findSpan(line, text, occurrence) {
  let start = -1;
  for (let i = 0; i <= occurrence; i += 1) {
    start = line.indexOf(text, start + 1);
    if (start < 0) return null;
  }
  return { start, end: start + text.length };
}

function describe(tokens) {
  return tokens.map((t) => `  ${JSON.stringify(t.text)} ${t.scopes.join(' ')}`).join('\n');
}

const isInvalid = (token) => token.scopes.some((s) => s.startsWith('invalid'));

test('the scope table', async () => {
  const grammar = await loadGrammar('source.mtgr');
  const failures = [];
  for (const [line, text, scope, occurrence = 0] of TABLE) {
    const span = findSpan(line, text, occurrence);
    assert.ok(span, `table row is wrong: ${JSON.stringify(text)} is not in ${JSON.stringify(line)}`);
    const tokens = tokenizeLines(grammar, [line])[0];
    const covering = tokens.filter((t) => t.start < span.end && t.end > span.start);
    const missing = covering.filter((t) => !t.scopes.includes(scope));
    const stray = scope === INVALID ? [] : tokens.filter(isInvalid);
    const exact = covering.length > 0 && covering[0].start === span.start
      && covering[covering.length - 1].end === span.end;
    if (missing.length || stray.length || !exact) {
      failures.push(`${JSON.stringify(line)}: ${JSON.stringify(text)} should be ${scope}\n${describe(tokens)}`);
    }
  }
  assert.equal(failures.length, 0, `${failures.length} rows failed:\n${failures.join('\n')}`);
});

test('a string the line did not close does not leak into the next line', async () => {
  const grammar = await loadGrammar('source.mtgr');
  const [first, second] = tokenizeLines(grammar, ['title "open', '#1 tap']);
  assert.ok(first.some(isInvalid), describe(first));
  assert.deepEqual(second.map((t) => [t.text, t.scopes.at(-1)]), [
    ['#1', 'variable.other.object.mtgr'],
    [' ', 'meta.statement.object.mtgr'],
    ['tap', VERB],
  ]);
});

// ---- the examples ---------------------------------------------------------------------

// MTGR_EXAMPLES points elsewhere for the wrapper's own check that a bad example fails
const EXAMPLES = process.env.MTGR_EXAMPLES || path.join(ROOT, 'examples');

function exampleFiles(extension) {
  if (!fs.existsSync(EXAMPLES)) return [];
  return fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(extension)).sort()
    .map((f) => path.join(EXAMPLES, f));
}

function invalidReport(file, numberedLines, tokenized) {
  const report = [];
  numberedLines.forEach(({ number, text }, i) => {
    const bad = tokenized[i].filter(isInvalid);
    if (bad.length) {
      report.push(`${path.relative(ROOT, file)}:${number}: invalid ${bad.map((t) => JSON.stringify(t.text)).join(', ')} in ${JSON.stringify(text)}`);
    }
  });
  return report;
}

test('every line of examples/*.mtgr tokenizes with no invalid token', async (t) => {
  const files = exampleFiles('.mtgr');
  if (files.length === 0) {
    t.skip('no examples/*.mtgr yet');
    return;
  }
  const grammar = await loadGrammar('source.mtgr');
  const report = [];
  let count = 0;
  for (const file of files) {
    const lines = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/)
      .map((text, i) => ({ number: i + 1, text }));
    count += lines.length;
    report.push(...invalidReport(file, lines, tokenizeLines(grammar, lines.map((l) => l.text))));
  }
  t.diagnostic(`${files.length} files, ${count} lines`);
  assert.equal(report.length, 0, report.join('\n'));
});

test('every ```mtgr block of examples/*.md tokenizes with no invalid token', async (t) => {
  const files = exampleFiles('.md').filter((f) => mtgrBlocks(fs.readFileSync(f, 'utf8')).length);
  if (files.length === 0) {
    t.skip('no ```mtgr blocks in examples/*.md yet');
    return;
  }
  const mtgr = await loadGrammar('source.mtgr');
  const markdown = await loadGrammar('text.html.markdown');
  const report = [];
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    const blockLines = mtgrBlocks(source);
    // each block's lines as source.mtgr, carrying state as an editor would within a block
    report.push(...invalidReport(file, blockLines, tokenizeLines(mtgr, blockLines.map((l) => l.text))));
    // and the whole page as Markdown: the injection must hand the same lines to source.mtgr
    const pageLines = source.split(/\r?\n/);
    const page = tokenizeLines(markdown, pageLines);
    const embedded = new Set();
    page.forEach((tokens, i) => {
      if (tokens.some((tok) => tok.text.trim() && tok.scopes.includes('meta.embedded.block.mtgr'))) {
        embedded.add(i + 1);
      }
      const bad = tokens.filter(isInvalid);
      if (bad.length) report.push(`${path.relative(ROOT, file)}:${i + 1}: invalid in Markdown: ${describe(bad)}`);
    });
    const expected = blockLines.filter((l) => l.text.trim()).map((l) => l.number);
    assert.deepEqual([...embedded], expected, `${file}: lines highlighted as mtgr in Markdown`);
  }
  t.diagnostic(`${files.length} files`);
  assert.equal(report.length, 0, report.join('\n'));
});

// ---- the Markdown injection ------------------------------------------------------------

test('```mtgr blocks in Markdown are highlighted as source.mtgr', async () => {
  const markdown = await loadGrammar('text.html.markdown');
  const page = [
    '# A page', // 0
    '',
    '```mtgr', // 2
    '#1 "Alice" tap by "Alice" // allow E1',
    '"Alice" keep',
    '```', // 5
    'Prose: "Alice" keep, #1 tap.', // 6
    '',
    '- a list item:',
    '',
    '  ~~~ MTGR title', // 10
    '  step upkeep',
    '  ~~~',
    '',
    '```python', // 14
    '"Alice" keep',
    '```',
    '',
    '> ```mtgr', // 18
    '> #2 untap',
    '> ```',
  ];
  const lines = tokenizeLines(markdown, page);
  const scopesOf = (lineIndex, text) => {
    const token = lines[lineIndex].find((t) => t.text === text);
    assert.ok(token, `${JSON.stringify(text)} on line ${lineIndex}:\n${describe(lines[lineIndex])}`);
    return token.scopes;
  };
  const embedded = (lineIndex, text, scope) => {
    const scopes = scopesOf(lineIndex, text);
    assert.ok(scopes.includes('meta.embedded.block.mtgr') && scopes.includes(scope),
      `${JSON.stringify(text)} on line ${lineIndex}: ${scopes.join(' ')}`);
  };
  assert.ok(scopesOf(2, 'mtgr').includes('fenced_code.block.language.markdown'));
  embedded(3, '#1', 'variable.other.object.mtgr');
  embedded(3, 'tap', VERB);
  embedded(3, 'Alice', 'string.quoted.double.card.identify.mtgr');
  embedded(3, 'E1', 'constant.language.diagnostic-code.mtgr');
  embedded(4, 'Alice', PLAYER);
  embedded(4, 'keep', VERB);
  embedded(11, 'step', 'keyword.control.step.mtgr');
  embedded(11, 'upkeep', 'support.constant.step.mtgr');
  embedded(19, '#2', 'variable.other.object.mtgr');
  embedded(19, 'untap', VERB);
  for (const index of [0, 5, 6, 12, 15]) {
    assert.ok(lines[index].every((t) => !t.scopes.some((s) => s.endsWith('.mtgr'))),
      `line ${index} is not mtgr:\n${describe(lines[index])}`);
  }
});

// ---- lines made from the PEG (tests/test_textmate_grammar.py writes them) --------------

test('lines generated from mtgr.peg: valid ones show no invalid token, an inserted %% does', async (t) => {
  const corpus = process.env.MTGR_GRAMMAR_CORPUS;
  if (!corpus) {
    t.skip('MTGR_GRAMMAR_CORPUS not set (pytest tests/test_textmate_grammar.py sets it)');
    return;
  }
  const grammar = await loadGrammar('source.mtgr');
  const items = JSON.parse(fs.readFileSync(corpus, 'utf8'));
  assert.ok(items.length > 0, 'empty corpus');
  const failures = [];
  for (const { line, invalid } of items) {
    const tokens = tokenizeLines(grammar, [line])[0];
    const bad = tokens.filter(isInvalid);
    let wrong = false;
    if (invalid === null) {
      wrong = bad.length > 0;
    } else {
      // the bad token is invalid; what it shifts out of place after it may be too
      const at = tokens.findIndex((tok) => tok.text === invalid);
      wrong = at < 0 || !isInvalid(tokens[at]) || tokens.slice(0, at).some(isInvalid);
    }
    if (wrong) {
      failures.push(`${JSON.stringify(line)} (expected invalid: ${JSON.stringify(invalid)})\n${describe(tokens)}`);
    }
  }
  t.diagnostic(`${items.length} lines`);
  assert.equal(failures.length, 0, `${failures.length} lines:\n${failures.slice(0, 20).join('\n')}`);
});
