// The script steps the real-agent tests use, written once for every agent: each names the tools
// the agents call for the job (the first one the request offers is used) and fills the call's
// arguments from the tool's own input schema, so one rule fits Claude Code's `Write {file_path,
// content}`, Gemini's `write_file {file_path, content}`, OpenCode's `write {filePath, content}`...
import type { Rule } from './script';

type Schema = Record<string, unknown> | undefined;

interface Values {
  path?: string;
  content?: string;
  command?: string;
  oldText?: string;
  newText?: string;
}

/** Arguments for a tool, from its schema's properties and the values the step wants. */
export function argsFor(schema: Schema, v: Values): Record<string, unknown> {
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(props)) {
    const k = key.toLowerCase();
    if (v.path !== undefined && /path|^file$|^filename$/.test(k)) out[key] = v.path;
    else if (v.command !== undefined && (k === 'command' || k === 'cmd'))
      out[key] = p.type === 'array' ? ['bash', '-lc', v.command] : v.command;
    else if (v.oldText !== undefined && /^old_?(string|str|text)$/.test(k)) out[key] = v.oldText;
    else if (v.newText !== undefined && /^new_?(string|str|text)$/.test(k)) out[key] = v.newText;
    else if (v.content !== undefined && /^(content|contents|text|file_text)$/.test(k)) out[key] = v.content;
    else if (required.has(key))
      out[key] =
        p.type === 'boolean'
          ? false
          : p.type === 'number' || p.type === 'integer'
            ? // A time limit (Claude Code's Bash `timeout`, in ms) must leave the command time to run.
              /timeout/.test(k)
              ? 60_000
              : 1
            : p.type === 'array'
              ? []
              : 'scripted step';
  }
  return out;
}

const READ = ['mcp__acp__Read', 'Read', 'read_file', 'read'];
const WRITE = ['mcp__acp__Write', 'Write', 'write_file', 'write'];
const EDIT = ['mcp__acp__Edit', 'Edit', 'replace', 'edit'];
const SHELL = ['mcp__acp__Bash', 'Bash', 'run_shell_command', 'bash', 'exec_command', 'shell'];

/** "read <file>": the agent reads the file; the answer quotes it. */
export function readStep(when: string, path: string): Rule {
  return {
    when,
    tool: {
      names: [...READ, 'exec_command', 'shell'],
      args: (name, schema) => argsFor(schema, READ.includes(name) ? { path } : { command: `cat ${path}` }),
      after: (r) => `The file says: ${r}`,
    },
  };
}

/** "write <file>": a new file with `content`. Codex has no write tool: it writes with its shell. */
export function writeStep(when: string, path: string, content: string): Rule {
  return {
    when,
    tool: {
      names: [...WRITE, 'exec_command', 'shell'],
      args: (name, schema) => argsFor(schema, WRITE.includes(name) ? { path, content } : { command: `printf '%s' '${content}' > ${path}` }),
      after: (r) => `Wrote it. ${r.slice(0, 800)}`,
    },
  };
}

/** "edit <file>": replace `oldText` with `newText`. */
export function editStep(when: string, path: string, oldText: string, newText: string): Rule {
  return {
    when,
    tool: {
      names: [...EDIT, 'exec_command', 'shell'],
      args: (name, schema) =>
        argsFor(schema, EDIT.includes(name) ? { path, oldText, newText } : { command: `sed -i 's/${oldText}/${newText}/' ${path}` }),
      after: (r) => `Edited it. ${r.slice(0, 200)}`,
    },
  };
}

/** "run <command>": the answer quotes the output. */
export function shellStep(when: string, command: string): Rule {
  return {
    when,
    tool: { names: SHELL, args: (_name, schema) => argsFor(schema, { command }), after: (r) => `The command printed: ${r}` },
  };
}

/** The names agents give an MCP server's tool: Claude `mcp__s__t`, Gemini `mcp_s_t`, Codex `mcp__s_with_underscores__t`, OpenCode `s_t`. */
export function mcpToolNames(server: string, tool: string): string[] {
  const under = server.replace(/-/g, '_');
  return [`mcp__${server}__${tool}`, `mcp_${server}_${tool}`, `mcp__${under}__${tool}`, `${server}_${tool}`, `${server}__${tool}`];
}

/** The first name in `text` that ends in `_tool` (`mcp__server__tool`), not the bare tool name. */
function qualifiedName(tool: string, text: string): string | undefined {
  return new RegExp(`[\\w-]*_${tool}`).exec(text)?.[0];
}

/**
 * A call of an MCP tool the conductor injected. Agents that show MCP tools only once the model
 * looked them up (claude-agent-acp's ToolSearch, Qwen Code's tool_search + tool_call) get the
 * lookup first; the others call the tool at once.
 */
export function mcpStep(when: string, server: string, tool: string, args: Record<string, unknown>): Rule {
  const names = mcpToolNames(server, tool);
  const after = (r: string): string => `The tool answered: ${r}`;
  return {
    when,
    steps: [
      {
        names: ['ToolSearch', 'tool_search'],
        args: () => ({ query: tool }),
        after,
        // Found: a name that ends in the tool's (`mcp__server__tool`), not the query echoed back. An
        // agent lists a server's tools once it has connected to it, which on a loaded machine can
        // take a while after the session started: search again for up to 10 s.
        retry: { until: (r) => qualifiedName(tool, r) !== undefined, times: 20, delayMs: 500 },
      },
      { names, args: () => args, after },
      {
        // Qwen Code: a looked-up tool is called through tool_call, by the exact name the search returned.
        names: ['tool_call'],
        args: (_name, _schema, previous) => ({
          name: qualifiedName(tool, previous ?? '') ?? names[0]!,
          arguments: args,
        }),
        after,
      },
    ],
  };
}

/**
 * The model remembers only what the agent sends it: `when` is answered from the conversation the
 * request carries, so an agent that resumed or loaded a session is told apart from one that did not.
 */
export function recallStep(when: string, word: string): Rule {
  return {
    when,
    text: (turn) => (turn.earlier?.includes(word) ? `You told me the codeword ${word}.` : 'I do not know any codeword.'),
  };
}
