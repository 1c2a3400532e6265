// The file-system adapter (seed: "Adapters shim for missing primitive capabilities"). Agents
// read and write through the client when `clientCapabilities.fs` says they may; editors that do
// not offer it leave agents blind. When the editor lacks `fs.readTextFile`/`fs.writeTextFile`,
// this adapter advertises them downstream and serves `fs/*` itself, confined to the session's
// working directory. When the editor offers them, the conductor leaves the adapter out.
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ErrorCodes } from '../jsonrpc/message';
import type { Component, ComponentContext, ComponentFactory, IncomingRequest } from '../chain/component';
import { sliceLines } from '../../src/protocol/acpText';
import { researchSessionMeta } from '../../src/protocol/symposium-ext';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function editorFs(caps: Obj): { read: boolean; write: boolean } {
  const fs = isObj(caps.fs) ? caps.fs : {};
  return { read: fs.readTextFile === true, write: fs.writeTextFile === true };
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
async function realPathAllowingMissing(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(await realPathAllowingMissing(parent), relative(parent, path));
  }
}

/** Resolves `path` and refuses anything outside `root` (after following symlinks). */
export async function confine(root: string, path: string): Promise<string> {
  if (!isAbsolute(path)) throw new Error(`path must be absolute: ${path}`);
  const realRoot = await realPathAllowingMissing(root);
  const real = await realPathAllowingMissing(resolve(path));
  if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
    throw new Error(`${path} is outside the session's working directory ${root}`);
  }
  return real;
}

class FsAdapter implements Component {
  readonly name = 'fs-adapter';
  private readonly cwdBySession = new Map<string, string>();
  /** Sessions opened for a crate researcher (`_meta.symposium.research`): not served here. */
  private readonly researchSessions = new Set<string>();

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    const p = isObj(request.params) ? request.params : {};
    if (request.direction === 'toAgent') {
      if (request.method === 'initialize') {
        const caps = isObj(p.clientCapabilities) ? p.clientCapabilities : {};
        const fs = isObj(caps.fs) ? caps.fs : {};
        return request.forward({ ...p, clientCapabilities: { ...caps, fs: { ...fs, readTextFile: true, writeTextFile: true } } });
      }
      if (request.method === 'session/new' && typeof p.cwd === 'string') {
        // A crate researcher's session must never see the user's workspace: leave its fs/* to the
        // component that opened it (crate-sources serves the crate tree, read-only).
        if (researchSessionMeta(p)) {
          return request.forwardThen(undefined, (outcome) => {
            const id = 'result' in outcome && isObj(outcome.result) ? outcome.result.sessionId : undefined;
            if (typeof id === 'string') this.researchSessions.add(id);
            return outcome;
          });
        }
        const cwd = p.cwd;
        return request.forwardThen(undefined, (outcome) => {
          const id = 'result' in outcome && isObj(outcome.result) ? outcome.result.sessionId : undefined;
          if (typeof id === 'string') this.cwdBySession.set(id, cwd);
          return outcome;
        });
      }
      if ((request.method === 'session/load' || request.method === 'session/resume') && typeof p.sessionId === 'string' && typeof p.cwd === 'string') {
        this.cwdBySession.set(p.sessionId, p.cwd);
      }
      return request.forward();
    }
    if (typeof p.sessionId === 'string' && this.researchSessions.has(p.sessionId)) return request.forward();
    const upstream = editorFs(cx.info.clientCapabilities);
    if (request.method === 'fs/read_text_file' && !upstream.read) return void this.serve(request, p, () => this.read(p));
    if (request.method === 'fs/write_text_file' && !upstream.write) return void this.serve(request, p, () => this.write(p));
    request.forward();
  }

  private async serve(request: IncomingRequest, p: Obj, work: () => Promise<unknown>): Promise<void> {
    try {
      request.respond(await work());
    } catch (err) {
      request.fail({ code: ErrorCodes.invalidParams, message: err instanceof Error ? err.message : String(err), data: { path: p.path } });
    }
  }

  private root(p: Obj): string {
    const cwd = typeof p.sessionId === 'string' ? this.cwdBySession.get(p.sessionId) : undefined;
    if (!cwd) throw new Error(`unknown session ${String(p.sessionId)}`);
    return cwd;
  }

  private async read(p: Obj): Promise<{ content: string }> {
    if (typeof p.path !== 'string') throw new Error('"path" must be a string');
    const file = await confine(this.root(p), p.path);
    return { content: sliceLines(await readFile(file, 'utf8'), p.line, p.limit) };
  }

  private async write(p: Obj): Promise<Record<string, never>> {
    if (typeof p.path !== 'string') throw new Error('"path" must be a string');
    if (typeof p.content !== 'string') throw new Error('"content" must be a string');
    const file = await confine(this.root(p), p.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, p.content, 'utf8');
    return {};
  }
}

export const fsAdapterFactory: ComponentFactory = {
  name: 'fs-adapter',
  description: 'Serves fs/read_text_file and fs/write_text_file inside the session folder when the editor does not.',
  kind: 'adapter',
  providedUpstream: (caps) => {
    const fs = editorFs(caps);
    return fs.read && fs.write;
  },
  create: () => new FsAdapter(),
};
