// Mocha setup (.mocharc.json "require"). The default chain includes the Sparkle component, which
// creates a profile in ~/.sparkle on first use; every conductor a test starts (directly, or through
// the extension's AgentActor) inherits this SPARKLE_DIR instead, so a test run never writes into the
// real home folder. Sparkle's own tests give each process its own HOME and an empty SPARKLE_DIR.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

if (!process.env.SPARKLE_DIR) process.env.SPARKLE_DIR = mkdtempSync(join(tmpdir(), 'symposium-sparkle-home-'));
