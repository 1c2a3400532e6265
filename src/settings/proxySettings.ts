// `symposium.proxies`: external ACP proxy processes the conductor puts into the chain (docs/proxies.md),
// by name → `{command, args?, env?}`. Each becomes a `--proxy '{"name","command","args"}'` on the
// conductor's command line; where it sits is decided by its name's place in
// `symposium.enabledComponents` (not named: first, right after the editor). The proxies' env goes
// to the conductor on its start-up pipe (conductorProcess.ts), not on the command line, where
// values would show in `ps`, nor in its environment, and reaches that proxy's process only. Pure.
import { isObject } from '../protocol/guards';

export interface ProxyDefinition {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface ProxySettings {
  proxies: ProxyDefinition[];
  problems: string[];
}

const NAME = /^[A-Za-z0-9._-]+$/;

export function parseProxySettings(raw: unknown): ProxySettings {
  const result: ProxySettings = { proxies: [], problems: [] };
  if (raw === undefined || raw === null) return result;
  if (!isObject(raw)) {
    result.problems.push('symposium.proxies must be an object of proxy names to {command, args, env}');
    return result;
  }
  for (const [name, def] of Object.entries(raw)) {
    const where = `symposium.proxies.${name}`;
    if (!NAME.test(name)) {
      result.problems.push(`${where}: a proxy name is letters, digits, ".", "_" or "-"`);
      continue;
    }
    if (!isObject(def) || typeof def.command !== 'string' || def.command.trim() === '') {
      result.problems.push(`${where}: "command" must be a non-empty string`);
      continue;
    }
    const args = def.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
      result.problems.push(`${where}: "args" must be a list of strings`);
      continue;
    }
    const env = def.env ?? {};
    if (!isObject(env) || !Object.values(env).every((v) => typeof v === 'string')) {
      result.problems.push(`${where}: "env" must map names to strings`);
      continue;
    }
    result.proxies.push({ name, command: def.command, args: args as string[], env: env as Record<string, string> });
  }
  return result;
}

/** The conductor flags for `proxies`, and each proxy's env by name (those that have one). */
export function proxyLaunch(proxies: readonly ProxyDefinition[]): { args: string[]; env: Record<string, Record<string, string>> } {
  const args = proxies.flatMap((p) => ['--proxy', JSON.stringify({ name: p.name, command: p.command, args: p.args })]);
  const env = Object.fromEntries(proxies.filter((p) => Object.keys(p.env).length > 0).map((p) => [p.name, p.env]));
  return { args, env };
}
