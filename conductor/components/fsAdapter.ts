// The file-system adapter (seed: "Adapters shim for missing primitive capabilities"). Agents
// read and write through the client when `clientCapabilities.fs` says they may; editors that do
// not offer it leave agents blind. When the editor lacks `fs.readTextFile`/`fs.writeTextFile`,
// this adapter advertises them downstream and serves `fs/*` itself, confined to the session's
// working directory. When the editor offers them, the conductor leaves the adapter out.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import type { Component, ComponentContext, ComponentFactory, IncomingRequest } from '../chain/component';
import { confine } from '../../src/node/confinement';
import { readLines, writeTextNoFollow } from '../../src/node/textFiles';
import { isObject, type JsonObject } from '../../src/protocol/guards';
import { researchSessionMeta } from '../../src/protocol/symposium-ext';

type Obj = JsonObject;

function editorFs(caps: Obj): { read: boolean; write: boolean } {
  const fs = isObject(caps.fs) ? caps.fs : {};
  return { read: fs.readTextFile === true, write: fs.writeTextFile === true };
}

/** The one confinement rule (src/node/confinement.ts), worded for this adapter's single root. */
const confineToSession = (root: string, path: string): string => confine(path, [root], { scope: 'the session\'s working directory' });

class FsAdapter implements Component {
  readonly name = 'fs-adapter';
  private readonly cwdBySession = new Map<string, string>();
  /** Sessions opened for a crate researcher (`_meta.symposium.research`): not served here. */
  private readonly researchSessions = new Set<string>();

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    const p = isObject(request.params) ? request.params : {};
    if (request.direction === 'toAgent') {
      if (request.method === 'initialize') {
        const caps = isObject(p.clientCapabilities) ? p.clientCapabilities : {};
        const fs = isObject(caps.fs) ? caps.fs : {};
        return request.forward({ ...p, clientCapabilities: { ...caps, fs: { ...fs, readTextFile: true, writeTextFile: true } } });
      }
      if (request.method === 'session/new' && typeof p.cwd === 'string') {
        // A crate researcher's session must never see the user's workspace: leave its fs/* to the
        // component that opened it (crate-sources serves the crate tree, read-only).
        if (researchSessionMeta(p)) {
          return request.forwardThen(undefined, (outcome) => {
            const id = 'result' in outcome && isObject(outcome.result) ? outcome.result.sessionId : undefined;
            if (typeof id === 'string') this.researchSessions.add(id);
            return outcome;
          });
        }
        const cwd = p.cwd;
        return request.forwardThen(undefined, (outcome) => {
          const id = 'result' in outcome && isObject(outcome.result) ? outcome.result.sessionId : undefined;
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
    const file = confineToSession(this.root(p), p.path);
    // Streamed: line 1 of a 200 MiB file reads one chunk, not the whole file.
    return { content: await readLines(file, p.line, p.limit) };
  }

  private async write(p: Obj): Promise<Record<string, never>> {
    if (typeof p.path !== 'string') throw new Error('"path" must be a string');
    if (typeof p.content !== 'string') throw new Error('"content" must be a string');
    const root = this.root(p);
    const file = confineToSession(root, p.path);
    await mkdir(dirname(file), { recursive: true });
    // Check again after creating the folders (a link may have appeared meanwhile), then open
    // without following a link in the last component: what is written is what was checked.
    if (confineToSession(root, p.path) !== file) throw new Error(`${p.path} changed while it was being written; refused`);
    await writeTextNoFollow(file, p.content);
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
