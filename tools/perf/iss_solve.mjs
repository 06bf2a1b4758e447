// One node process that answers uniqueness checks with sigh's Interactive Sudoku Solver (ISS,
// MIT, https://github.com/sigh/Interactive-Sudoku-Solver), for tools/perf/variants_vs_iss.py.
//
//   node tools/perf/iss_solve.mjs /path/to/Interactive-Sudoku-Solver
//
// It imports the ISS modules once, prints {"ready": true}, then reads one JSON object a line
// on stdin ({"input": "<ISS constraint string>"}) and writes one JSON line per request:
// {status, solutions, guesses, backtracks, build_ms, search_ms, solution} or {status: "error",
// error}. One process serves every puzzle, so node's start-up and the module imports are paid
// once and never timed; the caller kills the process when a solve runs past its time limit.
//
// The calls are the ones ISS's own benchmark makes (tools/lib/solver_analysis.js runSolve):
// SudokuParser.parseText (js/sudoku_parser.js), SudokuBuilder.resolveConstraint and
// SudokuBuilder.build (js/solver/sudoku_builder.js); the search goes through the solver's
// public SudokuSolver.nthSolution(0) then nthSolution(1) (js/solver/engine.js), which resumes
// the same search for a second solution: the search runSolve's `maxSolutions: 2` runs (ISS's
// default --solutions 2, "proof of uniqueness"). SudokuSolver.state() gives the counters and
// whether the search was exhausted.
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const root = process.argv[2];
if (!root) {
  console.error('usage: node tools/perf/iss_solve.mjs <Interactive-Sudoku-Solver checkout>');
  process.exit(2);
}
// The ISS modules read these browser globals at import time (ISS sets them the same way for
// node in tests/helpers/test_env.js ensureGlobalEnvironment).
globalThis.self ??= globalThis;
globalThis.VERSION_PARAM ??= '';

const load = (file) => import(pathToFileURL(path.resolve(root, file)).href);
const { SudokuParser } = await load('js/sudoku_parser.js');
const { SudokuBuilder } = await load('js/solver/sudoku_builder.js');

const solve = (input) => {
  const constraint = SudokuParser.parseText(input);
  const start = performance.now();
  const solver = SudokuBuilder.build(SudokuBuilder.resolveConstraint(constraint));
  const built = performance.now();
  const first = solver.nthSolution(0);
  const second = first ? solver.nthSolution(1) : null;
  const done = performance.now();
  const state = solver.state();
  const cells = solver.geometry().numGridCells;
  let status;
  if (!first) status = state.done ? 'none' : 'timeout';
  else if (second) status = 'multiple';
  else status = state.done ? 'unique' : 'timeout';
  return {
    status,
    solutions: state.counters.solutions,
    guesses: state.counters.guesses,
    backtracks: state.counters.backtracks,
    build_ms: built - start,
    search_ms: done - built,
    solution: first ? Array.from(first.slice(0, cells)) : null,
  };
};

const write = (object) => process.stdout.write(JSON.stringify(object) + '\n');
write({ ready: true });
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let answer;
  try {
    answer = solve(JSON.parse(line).input);
  } catch (error) {
    answer = { status: 'error', error: String(error?.message ?? error).split('\n')[0] };
  }
  write(answer);
}
