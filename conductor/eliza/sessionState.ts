// What ElizACP remembers of a session so that it can be continued (`--resume`: session/resume, no
// replay) or replayed (`--load-session`: session/load sends every update again, in order): its id,
// folder, picks, prompt count and every session/update it sent (the prompts as
// user_message_chunk). In memory per process; with `--state-dir D` also one JSON file per session
// in D, rewritten after every change, so a restarted ElizACP finds the session again.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { isObject } from '../../src/protocol/guards';
import { logError } from './log';
import { writeFileAtomicSync } from '../../src/node/atomicWrite';

export interface SavedSession {
  id: string;
  cwd: string;
  modeId: string;
  model: string;
  prompts: number;
  updatedAt: string;
  /** The session's other folders besides cwd (`additionalDirectories`), as last set up. */
  additionalDirectories?: string[];
  /** The first prompt's text (session/list's title). */
  title?: string;
  history: acp.SessionUpdate[];
}

const ID = /^[A-Za-z0-9-]{1,64}$/;

export class SessionStateDir {
  constructor(private readonly dir: string) {}

  save(s: SavedSession): void {
    try {
      writeFileAtomicSync(path.join(this.dir, `${s.id}.json`), JSON.stringify(s));
    } catch (e) {
      logError(`could not save session ${s.id}: ${String(e)}`);
    }
  }

  load(id: string): SavedSession | undefined {
    if (!ID.test(id)) return undefined;
    try {
      return parseSaved(JSON.parse(readFileSync(path.join(this.dir, `${id}.json`), 'utf8')));
    } catch {
      return undefined;
    }
  }

  /** Forgets a saved session (session/delete); false when there was none. */
  delete(id: string): boolean {
    if (!ID.test(id)) return false;
    const file = path.join(this.dir, `${id}.json`);
    if (!existsSync(file)) return false;
    rmSync(file, { force: true });
    return true;
  }

  list(): SavedSession[] {
    let names: string[] = [];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.filter((n) => n.endsWith('.json')).flatMap((n) => this.load(n.slice(0, -'.json'.length)) ?? []);
  }
}

function parseSaved(v: unknown): SavedSession | undefined {
  if (!isObject(v)) return undefined;
  const { id, cwd, modeId, model, prompts, updatedAt, title, history, additionalDirectories } = v;
  if (typeof id !== 'string' || typeof cwd !== 'string' || typeof modeId !== 'string' || typeof model !== 'string') return undefined;
  if (typeof prompts !== 'number' || typeof updatedAt !== 'string' || !Array.isArray(history)) return undefined;
  return {
    id,
    cwd,
    modeId,
    model,
    prompts,
    updatedAt,
    ...(typeof title === 'string' ? { title } : {}),
    ...(Array.isArray(additionalDirectories)
      ? { additionalDirectories: additionalDirectories.filter((d): d is string => typeof d === 'string') }
      : {}),
    history: history.filter((u): u is acp.SessionUpdate => isObject(u) && typeof u.sessionUpdate === 'string'),
  };
}
