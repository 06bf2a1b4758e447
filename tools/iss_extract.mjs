// Extracts the Interactive Sudoku Solver's example and collection puzzles that state a
// solution and are written as constraint strings, into sudoku_cp/data/iss.jsonl.
//
//   node tools/iss_extract.mjs /tmp/ref/sigh+Interactive-Sudoku-Solver > sudoku_cp/data/iss.jsonl
//
// The data files are ES modules that read `self.VERSION_PARAM` (a browser global), so it is
// defined here before they are imported. Entries are taken in the order the files list them,
// each input once; inputs that are not constraint strings (killer short forms, plain lines,
// paths to .iss files or sandbox scripts) are left out.
import path from 'node:path';

const root = process.argv[2];
if (!root) {
  console.error('usage: node tools/iss_extract.mjs <Interactive-Sudoku-Solver checkout>');
  process.exit(2);
}
globalThis.self = { VERSION_PARAM: '' };
const data = path.resolve(root, 'data');
const examples = await import(path.join(data, 'example_puzzles.js'));
const collections = await import(path.join(data, 'collections.js'));

const found = [];
for (const entry of examples.DISPLAYED_EXAMPLES) {
  found.push(['data/example_puzzles.js', examples.resolvePuzzleConfig(entry)]);
}
for (const [name, value] of Object.entries(collections)) {
  if (!Array.isArray(value)) continue;
  for (const entry of value) {
    const config = value.configFor ? value.configFor(entry) : examples.resolvePuzzleConfig(entry);
    found.push([`data/collections.js ${name}`, config]);
  }
}

const seen = new Set();
let number = 0;
for (const [file, config] of found) {
  const input = config.input;
  if (typeof input !== 'string' || seen.has(input)) continue;
  seen.add(input);
  // A constraint string: '.' then a type (or none, for givens) and '~', or a bare type
  // ('.AntiKnight'); a plain line of a grid may start with '.' too (a blank cell).
  const text = input.replace(/\s+/g, '');
  if (!config.solution || !(/^\.[A-Za-z]*~/.test(text) || /^\.[A-Z][A-Za-z]+(\.|$)/.test(text))) {
    continue;
  }
  number += 1;
  const links = config.src === undefined ? [] : [].concat(config.src);
  console.log(JSON.stringify({
    id: `iss-${number}`,
    name: config.name === input ? '' : config.name,
    source: ['sigh/Interactive-Sudoku-Solver@e373f98 ' + file, ...links].join(' '),
    puzzle: text,
    solution: config.solution,
  }));
}
