// The npm package `symposium-acp` as a user gets it: built by scripts/package-conductor.mjs into a
// tarball, installed with `npm install -g <tgz> --prefix <folder> --offline` (a registry that does
// not answer, so nothing can come from the network), and run as <folder>/bin/symposium-acp. Built
// and installed once per test process, by whichever test asks first.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './harness';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');

export interface InstalledPackage {
  tarball: string;
  /** The registry file the build wrote beside the tarball. */
  registryFile: string;
  prefix: string;
  /** <prefix>/bin/symposium-acp, the command npm linked. */
  bin: string;
  /** The installed package's folder (<prefix>/lib/node_modules/symposium-acp). */
  dir: string;
}

let installed: Promise<InstalledPackage> | undefined;

export function installedPackage(): Promise<InstalledPackage> {
  return (installed ??= buildAndInstall());
}

async function buildAndInstall(): Promise<InstalledPackage> {
  const out = tempDir('symposium-acp-pack-');
  const built = await run(process.execPath, [join(ROOT, 'scripts/package-conductor.mjs'), '--out', out], { cwd: ROOT });
  const tarball = built.stdout.trim().split('\n').pop()!;
  const prefix = tempDir('symposium-acp-prefix-');
  await run('npm', ['install', '-g', tarball, '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: prefix,
    env: {
      ...process.env,
      // Nothing may come from the network: a registry that refuses connections, an empty cache.
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_cache: tempDir('symposium-acp-npm-cache-'),
      npm_config_update_notifier: 'false',
    },
  });
  return {
    tarball,
    registryFile: join(out, 'symposium-acp-registry.json'),
    prefix,
    bin: join(prefix, 'bin', 'symposium-acp'),
    dir: join(prefix, 'lib', 'node_modules', 'symposium-acp'),
  };
}

/**
 * The processes whose environment holds `NAME=value` (what a test gave the command it ran, and
 * what every process it started inherits): those still running are left over. Zombies waiting
 * for a parent count as gone.
 */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (/^\S+ \(.*\) Z/s.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      if (readFileSync(`/proc/${entry}/environ`).includes(needle)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}
