// The unit tier's rule (`npm run test:unit`): a spec there starts no process. Loaded with
// `--require` in that tier only: every way of starting a process throws, naming the rule, so a spec
// that needs one is named `*.process.spec.ts` and runs in the process tier. Worker threads are not
// processes and stay allowed.
const childProcess = require('node:child_process');
const { syncBuiltinESMExports } = require('node:module');

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => {
    throw new Error(`a unit-tier spec started a process (child_process.${name}): name the spec *.process.spec.ts`);
  };
}
syncBuiltinESMExports();
