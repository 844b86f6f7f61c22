#!/usr/bin/env node
// The package runs its TypeScript sources natively; this shim exists because npm links
// `bin` entries by file name and a .ts file cannot carry the shebang on every platform.
import '../src/cli/main.ts';
