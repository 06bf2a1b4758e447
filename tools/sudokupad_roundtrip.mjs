// Converts f-puzzles puzzles to SudokuPad's own puzzle object (SCL) with SudokuPad's f-puzzles
// converter, for the round-trip corpus tests/data/sudokupad_roundtrip.jsonl.
//
//   node tools/sudokupad_roundtrip.mjs [--source=TEXT] CONVERTER INPUT.jsonl[=NAME] … > OUT.jsonl
//
// (--source= names the converter in the first line, the file's header: repository, path, commit.)
//
// CONVERTER is the path of SudokuPad's fpuzzlesdecoder.js (as vendored in
// marktekfan/sudokupad-penpa-import src/sudokupad/fpuzzlesdecoder.js, commit b299d1a, MIT); it is
// imported from there, never copied. Each input line that is an f-puzzles object (it has a
// 'grid') gives one output line: {"set", "line", "title", "scl"} where "scl" is what the
// converter's parseFPuzzle returns for it. Two things the browser provides are given here:
// triangularNumber (a global of SudokuPad's utilities.js, which parse.extraregion calls without
// importing it) and nothing for SvgRenderer (so getCellSize is the converter's fallback, 64).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const sourceArg = args.find(a => a.startsWith('--source='));
const [converter, ...inputs] = args.filter(a => !a.startsWith('--source='));
if (!converter || inputs.length === 0) {
	console.error('usage: node tools/sudokupad_roundtrip.mjs CONVERTER INPUT.jsonl[=NAME] ...');
	process.exit(2);
}
// n (n + 1) / 2, as SudokuPad's utilities.js defines it for the whole numbers used here.
globalThis.triangularNumber = n => (n * (n + 1)) / 2;
const { loadFPuzzle } = await import(pathToFileURL(resolve(converter)).href);

// The first line says how the file was made.
process.stdout.write(JSON.stringify({
	about: 'f-puzzles puzzles converted to SudokuPad puzzle objects by SudokuPad\'s own converter '
		+ '(loadFPuzzle.parseFPuzzle), made by tools/sudokupad_roundtrip.mjs',
	converter: sourceArg ? sourceArg.slice('--source='.length) : converter,
	inputs: inputs.map(i => i.split('=')[0]),
}) + '\n');

for (const input of inputs) {
	const [path, name] = input.includes('=') ? input.split('=') : [input, input];
	const lines = readFileSync(path, 'utf-8').split('\n');
	lines.forEach((text, index) => {
		if (!text.trim()) return;
		const fpuzzle = JSON.parse(text);
		if (!Array.isArray(fpuzzle.grid)) return;
		// parseFPuzzle changes nothing we keep, but gets its own copy all the same.
		const scl = loadFPuzzle.parseFPuzzle(JSON.parse(text));
		delete scl.id; // an md5 of the payload: no rule, and it only makes the file bigger
		const record = { set: name, line: index + 1, title: fpuzzle.title ?? null, scl };
		process.stdout.write(JSON.stringify(record) + '\n');
	});
}
