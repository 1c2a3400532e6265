// The conductor's fs-adapter as a real process in front of ElizACP, with real files: writes
// through dangling symlinks are refused (the shared confinement, src/node/confinement.ts), and a
// one-line read of a 200 MiB file does not load the file (src/node/textFiles.ts readLines).
import * as assert from 'node:assert/strict';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { conductorArgs, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';

const MiB = 1024 * 1024;

/** VmRSS / VmHWM of a process, in bytes. */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

describe('fs-adapter (real conductor process, real files)', function () {
  this.timeout(30000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('refuses writes through dangling symlinks (also chained) and creates nothing outside', async () => {
    h = startProcess(conductorArgs());
    await initialize(h, {}); // no editor fs: the adapter serves fs/*
    const base = tempDir('symposium-fsadapter-');
    const cwd = join(base, 'ws');
    const outside = join(base, 'outside');
    mkdirSync(cwd);
    mkdirSync(outside);
    symlinkSync(join(outside, 'planted.txt'), join(cwd, 'escape'));
    symlinkSync(join(cwd, 'escape'), join(cwd, 'chain'));
    symlinkSync(join(outside, 'newdir'), join(cwd, 'dir-escape'));
    const sessionId = await newSession(h, cwd);
    for (const target of ['escape', 'chain', 'dir-escape/file.txt']) {
      const r = await prompt(h, sessionId, `write file ${join(cwd, target)} with planted`);
      assert.match(r.text, /outside the session's working directory/, `${target}: ${r.text}`);
    }
    assert.equal(existsSync(join(outside, 'planted.txt')), false);
    assert.equal(existsSync(join(outside, 'newdir')), false);
    // A legal name starting with two dots still works.
    assert.match((await prompt(h, sessionId, `write file ${join(cwd, '..notes')} with fine`)).text, /Wrote/);
    assert.equal(readFileSync(join(cwd, '..notes'), 'utf8'), 'fine');
  });

  it('reads line 1 (limit 1) of a 200 MiB file without loading it: conductor peak RSS grows < 32 MiB', async () => {
    const cwd = tempDir('symposium-bigfile-');
    const file = join(cwd, 'big.log');
    const fd = openSync(file, 'w');
    writeSync(fd, 'the first line\n');
    const block = Buffer.from('x'.repeat(1023) + '\n');
    const chunk = Buffer.concat(Array.from({ length: 1024 }, () => block)); // 1 MiB of 1 KiB lines
    for (let i = 0; i < 200; i++) writeSync(fd, chunk);
    closeSync(fd);

    h = startProcess(conductorArgs());
    await initialize(h, {});
    const sessionId = await newSession(h, cwd);
    await prompt(h, sessionId, `read file ${join(cwd, '..notes-missing')}`); // warm the read path up
    const pid = h.child.pid!;
    let reset = true;
    try {
      // reset the peak so VmHWM measures this read only (Linux clear_refs "5")
      const f = openSync(`/proc/${pid}/clear_refs`, 'w');
      writeSync(f, '5');
      closeSync(f);
    } catch {
      reset = false;
    }
    const before = memory(pid);
    const r = await prompt(h, sessionId, `read file ${file} lines 1 1`);
    const after = memory(pid);
    rmSync(file); // 200 MiB of temp space
    const growth = after.hwm - before.rss;
    console.log(
      `      conductor RSS before ${(before.rss / MiB).toFixed(1)} MiB, peak after ${(after.hwm / MiB).toFixed(1)} MiB, growth ${(growth / MiB).toFixed(1)} MiB (peak reset: ${reset})`,
    );
    assert.equal(r.text, `Contents of ${file}:\n\`\`\`\nthe first line\n\`\`\``);
    assert.ok(growth < 32 * MiB, `peak RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
  });
});
