#!/usr/bin/env node
// npm links `bin` entries by file name; this shim lets the TypeScript CLI run natively.
import { main } from '../src/cli/main.ts';

await main();
