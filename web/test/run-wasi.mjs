// SPDX-License-Identifier: MIT
// Runs a WASI command (a test program built by `make test-wasm`) under Node's WASI; its exit
// status becomes this process's.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';

const [file, ...args] = process.argv.slice(2);
// The program sees HS_TEST_QUICK (the tests' scale) when this process has it, nothing else.
const quick = process.env.HS_TEST_QUICK;
const env = quick === undefined ? {} : { HS_TEST_QUICK: quick };
const wasi = new WASI({ version: 'preview1', args: [file, ...args], env });
const module = await WebAssembly.compile(await readFile(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
