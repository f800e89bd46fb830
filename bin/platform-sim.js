#!/usr/bin/env node
// The executable: the built CLI (npm ci runs the build through `prepare`).
await import('../dist/cli/main.js');
