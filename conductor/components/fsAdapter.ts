// The file-system adapter: an adapter shims a primitive capability the editor lacks. Agents
// read and write through the client when `clientCapabilities.fs` says they may; editors that do
// not offer it leave agents blind. When the editor lacks `fs.readTextFile`/`fs.writeTextFile`,
// this adapter advertises them downstream and serves `fs/*` itself, confined to the session's
// working directory and its additional directories (when the agent takes them). When the editor offers them, the conductor leaves the adapter out.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import {
  asInitialize,
  asReadTextFile,
  asSessionFork,
  asSessionLoad,
  asSessionNew,
  asSessionResume,
  asWriteTextFile,
  isSessionSetup,
  paramsProblem,
  sessionIdOf,
  sessionRoots,
} from '../chain/acpGuards';
import type { Component, ComponentContext, ComponentFactory, Direction, IncomingRequest } from '../chain/component';
import { confine } from '../../src/node/confinement';
import { readLines, writeTextNoFollow } from '../../src/node/textFiles';
import { isObject, type JsonObject } from '../../src/protocol/guards';
import { researchSessionMeta } from '../../src/protocol/symposium-ext';
import { errorText } from '../../src/protocol/errorText';

function editorFs(caps: JsonObject): { read: boolean; write: boolean } {
  const fs = isObject(caps.fs) ? caps.fs : {};
  return { read: fs.readTextFile === true, write: fs.writeTextFile === true };
}

/** The agent's requests this adapter serves when the editor does not. */
const FS_METHODS = new Set(['fs/read_text_file', 'fs/write_text_file']);

/** The one confinement rule (src/node/confinement.ts), worded for this adapter's roots. */
const confineToSession = (roots: readonly string[], path: string): string =>
  confine(path, roots, { scope: roots.length > 1 ? "the session's folders" : "the session's working directory" });

class FsAdapter implements Component {
  readonly name = 'fs-adapter';
  private readonly rootsBySession = new Map<string, string[]>();
  /** Sessions opened for a crate researcher (`_meta.symposium.research`): not served here. */
  private readonly researchSessions = new Set<string>();

  /** `initialize` (it advertises fs/*), sessions set up (their folders), and fs/* from the agent. */
  wantsRequest(method: string, direction: Direction): boolean {
    return direction === 'toAgent' ? method === 'initialize' || isSessionSetup(method) : FS_METHODS.has(method);
  }

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    if (request.direction === 'toAgent') return this.towardAgent(request, cx);
    const sessionId = sessionIdOf(request.params);
    if (sessionId !== undefined && this.researchSessions.has(sessionId)) return request.forward();
    const upstream = editorFs(cx.info.clientCapabilities);
    if (request.method === 'fs/read_text_file' && !upstream.read) return void this.serve(request, () => this.read(request.params));
    if (request.method === 'fs/write_text_file' && !upstream.write) return void this.serve(request, () => this.write(request.params));
    request.forward();
  }

  /** Advertises fs/* to the agent and learns each session's folder. */
  private towardAgent(request: IncomingRequest, cx: ComponentContext): void {
    const { method, params } = request;
    const init = method === 'initialize' ? asInitialize(params) : undefined;
    if (init) {
      const caps = init.clientCapabilities ?? {};
      const fs = isObject(caps.fs) ? caps.fs : {};
      return request.forward({ ...init, clientCapabilities: { ...caps, fs: { ...fs, readTextFile: true, writeTextFile: true } } });
    }
    const created = method === 'session/new' ? asSessionNew(params) : undefined;
    if (created) {
      // A crate researcher's session must never see the user's workspace: leave its fs/* to the
      // component that opened it (crate-sources serves the crate tree, read-only).
      const research = researchSessionMeta(created) !== undefined;
      return request.forwardThen(undefined, (outcome) => {
        const id = 'result' in outcome ? sessionIdOf(outcome.result) : undefined;
        if (id !== undefined && research) this.researchSessions.add(id);
        else if (id !== undefined) this.rootsBySession.set(id, sessionRoots(created, cx.info.agentCapabilities));
        return outcome;
      });
    }
    const forked = method === 'session/fork' ? asSessionFork(params) : undefined;
    if (forked) {
      // A fork of a crate researcher's session is one too (its files are the crate's, not ours).
      const research = this.researchSessions.has(forked.sessionId);
      return request.forwardThen(undefined, (outcome) => {
        const id = 'result' in outcome ? sessionIdOf(outcome.result) : undefined;
        if (id !== undefined && research) this.researchSessions.add(id);
        else if (id !== undefined) this.rootsBySession.set(id, sessionRoots(forked, cx.info.agentCapabilities));
        return outcome;
      });
    }
    const reopened = method === 'session/load' ? asSessionLoad(params) : method === 'session/resume' ? asSessionResume(params) : undefined;
    if (reopened) this.rootsBySession.set(reopened.sessionId, sessionRoots(reopened, cx.info.agentCapabilities));
    request.forward();
  }

  private async serve(request: IncomingRequest, work: () => Promise<unknown>): Promise<void> {
    try {
      request.respond(await work());
    } catch (err) {
      const path = isObject(request.params) ? request.params.path : undefined;
      request.fail({ code: ErrorCodes.invalidParams, message: errorText(err), data: { path } });
    }
  }

  private roots(sessionId: string): string[] {
    const roots = this.rootsBySession.get(sessionId);
    if (!roots) throw new Error(`unknown session ${sessionId}`);
    return roots;
  }

  private async read(params: unknown): Promise<{ content: string }> {
    const p = asReadTextFile(params);
    if (!p) throw new Error(paramsProblem('fs/read_text_file', params));
    const file = confineToSession(this.roots(p.sessionId), p.path);
    // Streamed: line 1 of a 200 MiB file reads one chunk, not the whole file.
    return { content: await readLines(file, p.line, p.limit) };
  }

  private async write(params: unknown): Promise<Record<string, never>> {
    const p = asWriteTextFile(params);
    if (!p) throw new Error(paramsProblem('fs/write_text_file', params));
    const roots = this.roots(p.sessionId);
    const file = confineToSession(roots, p.path);
    await mkdir(dirname(file), { recursive: true });
    // Check again after creating the folders (a link may have appeared meanwhile), then open
    // without following a link in the last component: what is written is what was checked.
    if (confineToSession(roots, p.path) !== file) throw new Error(`${p.path} changed while it was being written; refused`);
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
