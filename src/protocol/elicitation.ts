// ACP elicitation (`elicitation/create`): an agent asks the user for structured input, as a form
// rendered from a restricted JSON Schema (`mode: "form"`, properties of type string — free text,
// or one of an enum / titled `oneOf` —, number, integer, boolean, and arrays of enum strings) or
// by sending the user to a URL (`mode: "url"`). This module reads a request into what a card
// shows, refusing what it cannot show faithfully (so the agent gets a clear answer, never a
// half-rendered form), and turns the values a card sends back into the `accept` content, checked
// against the schema. A string's `pattern` is not evaluated here: it is the agent's regular
// expression, and the agent (or the MCP server behind it) checks its own answer. Pure.
import type { ElicitationOutcome } from './webview';

/** What a field takes; `name` is the property's key in the content. */
export type ElicitationField = FieldBase &
  (
    | { kind: 'text'; default?: string; format?: string; minLength?: number; maxLength?: number }
    | { kind: 'choice'; options: ChoiceOption[]; default?: string }
    | { kind: 'choices'; options: ChoiceOption[]; default?: string[]; minItems?: number; maxItems?: number }
    | { kind: 'number' | 'integer'; default?: number; minimum?: number; maximum?: number }
    | { kind: 'boolean'; default?: boolean }
  );
interface FieldBase {
  name: string;
  title: string;
  description?: string;
  required: boolean;
}
export interface ChoiceOption {
  value: string;
  label: string;
  description?: string;
}

export interface ElicitationForm {
  title?: string;
  description?: string;
  fields: ElicitationField[];
}

/** A request as a card shows it. */
export type ElicitationPrompt =
  | { mode: 'form'; message: string; form: ElicitationForm }
  | { mode: 'url'; message: string; url: string; host: string; elicitationId: string };

/** Where a request belongs: a session (and maybe one of its tool calls), or none we can show. */
export type ElicitationScope = { sessionId: string; toolCallId?: string } | { requestId: unknown };

export type ReadElicitation =
  { ok: true; prompt: ElicitationPrompt; scope: ElicitationScope } | { ok: false; error: string; scope?: ElicitationScope };

export type ElicitationValue = string | number | boolean | string[];

/** A multi-select's options travel as one form value per option: `<field>#<index>` = 'true' | 'false'. */
/** What became of a request for input, as the chat's card and the Markdown export name it. */
export function elicitationOutcomeLabel(action: ElicitationOutcome['action']): string {
  return { accept: 'Submitted', decline: 'Declined', cancel: 'Cancelled', opened: 'Opened', completed: 'Done' }[action];
}

export const choiceKey = (field: string, index: number): string => `${field}#${index}`;

const MAX_FIELDS = 50;
const MAX_OPTIONS = 200;
const MAX_TEXT = 10_000;
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

export function readElicitation(params: unknown): ReadElicitation {
  if (!isObject(params)) return { ok: false, error: 'the request has no params' };
  const scope = scopeOf(params);
  const fail = (error: string): ReadElicitation => ({ ok: false, error, ...(scope ? { scope } : {}) });
  if (!scope) return fail('the request names neither a session nor a request');
  const message = typeof params.message === 'string' ? params.message.slice(0, MAX_TEXT) : '';
  if (params.mode === 'url') {
    if (typeof params.elicitationId !== 'string' || params.elicitationId === '') return fail('a URL request needs an elicitationId');
    const url = webUrl(params.url);
    if (!url) return fail('the URL is not an http(s) address');
    return { ok: true, scope, prompt: { mode: 'url', message, url: url.href, host: url.host, elicitationId: params.elicitationId } };
  }
  if (params.mode !== 'form') return fail(`the mode ${JSON.stringify(params.mode)} is not one this client shows`);
  const form = readForm(params.requestedSchema);
  return typeof form === 'string' ? fail(form) : { ok: true, scope, prompt: { mode: 'form', message, form } };
}

/** An http(s) URL, or undefined: any other scheme (`javascript:`, `file:`, `vscode:`, …) is never offered. */
export function webUrl(raw: unknown): URL | undefined {
  if (typeof raw !== 'string' || raw.length > 8_192) return undefined;
  try {
    const url = new URL(raw);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.host !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

function scopeOf(p: Record<string, unknown>): ElicitationScope | undefined {
  if (typeof p.sessionId === 'string' && p.sessionId !== '')
    return { sessionId: p.sessionId, ...(typeof p.toolCallId === 'string' ? { toolCallId: p.toolCallId } : {}) };
  if (p.requestId !== undefined && p.requestId !== null) return { requestId: p.requestId };
  return undefined;
}

/** The form, or why it cannot be shown. */
function readForm(schema: unknown): ElicitationForm | string {
  if (!isObject(schema)) return 'the form has no requestedSchema';
  if (schema.type !== undefined && schema.type !== 'object') return 'the requestedSchema is not an object schema';
  const props = schema.properties ?? {};
  if (!isObject(props)) return 'the requestedSchema has no properties object';
  const names = Object.keys(props);
  if (names.length > MAX_FIELDS) return `the form has more than ${MAX_FIELDS} fields`;
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const fields: ElicitationField[] = [];
  for (const name of names) {
    const field = readField(name, props[name], required.includes(name));
    if (typeof field === 'string') return `the field "${name}" ${field}`;
    fields.push(field);
  }
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v.slice(0, MAX_TEXT) : undefined);
  return { ...optional('title', text(schema.title)), ...optional('description', text(schema.description)), fields };
}

function readField(name: string, raw: unknown, required: boolean): ElicitationField | string {
  if (!isObject(raw)) return 'is not a schema';
  const base: FieldBase = {
    name,
    title: typeof raw.title === 'string' && raw.title !== '' ? raw.title.slice(0, 500) : name,
    required,
    ...optional(
      'description',
      typeof raw.description === 'string' && raw.description !== '' ? raw.description.slice(0, MAX_TEXT) : undefined,
    ),
  };
  const num = (k: string): number | undefined => (typeof raw[k] === 'number' && Number.isFinite(raw[k]) ? (raw[k] as number) : undefined);
  switch (raw.type) {
    case 'string': {
      const options = choiceOptions(raw);
      if (typeof options === 'string') return options;
      const def = typeof raw.default === 'string' ? raw.default : undefined;
      if (options)
        return { ...base, kind: 'choice', options, ...optional('default', options.some((o) => o.value === def) ? def : undefined) };
      if (raw.format !== undefined && raw.format !== null && !FORMATS.has(String(raw.format)))
        return `has a format this client does not know (${String(raw.format)})`;
      return {
        ...base,
        kind: 'text',
        ...optional('default', def),
        ...optional('format', typeof raw.format === 'string' ? raw.format : undefined),
        ...optional('minLength', num('minLength')),
        ...optional('maxLength', num('maxLength')),
      };
    }
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: raw.type,
        ...optional('default', num('default')),
        ...optional('minimum', num('minimum')),
        ...optional('maximum', num('maximum')),
      };
    case 'boolean':
      return { ...base, kind: 'boolean', ...optional('default', typeof raw.default === 'boolean' ? raw.default : undefined) };
    case 'array': {
      const options = isObject(raw.items) ? choiceOptions(raw.items) : undefined;
      if (typeof options === 'string') return options;
      if (!options) return 'is a list whose items are not a set of choices';
      const def = Array.isArray(raw.default) ? raw.default.filter((d): d is string => options.some((o) => o.value === d)) : undefined;
      return {
        ...base,
        kind: 'choices',
        options,
        ...optional('default', def),
        ...optional('minItems', num('minItems')),
        ...optional('maxItems', num('maxItems')),
      };
    }
    default:
      return `has a type this client cannot show (${JSON.stringify(raw.type)})`;
  }
}

/** `enum` (plain values), `oneOf`/`anyOf` of `{const, title}` (titled values); undefined when neither. */
function choiceOptions(s: Record<string, unknown>): ChoiceOption[] | string | undefined {
  const titled = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  const list = titled ?? (Array.isArray(s.enum) ? s.enum : undefined);
  if (!list) return undefined;
  if (list.length === 0) return 'offers no choices';
  if (list.length > MAX_OPTIONS) return `offers more than ${MAX_OPTIONS} choices`;
  const options: ChoiceOption[] = [];
  for (const o of list) {
    if (typeof o === 'string' && !titled) options.push({ value: o, label: o });
    else if (titled && isObject(o) && typeof o.const === 'string')
      options.push({
        value: o.const,
        label: typeof o.title === 'string' && o.title !== '' ? o.title : o.const,
        ...optional('description', typeof o.description === 'string' && o.description !== '' ? o.description : undefined),
      });
    else return 'has a choice that is not a string';
  }
  return options;
}

/**
 * The `accept` content for the values a card sent (strings, as forms hold them), checked against
 * the form: required fields, types, bounds, lengths, choices. Empty optional fields are left out.
 */
export function contentFromValues(
  form: ElicitationForm,
  values: Readonly<Record<string, string>>,
): { ok: true; content: Record<string, ElicitationValue> } | { ok: false; errors: string[] } {
  const content: Record<string, ElicitationValue> = {};
  const errors: string[] = [];
  for (const f of form.fields) {
    const say = (problem: string): void => void errors.push(`${f.title}: ${problem}`);
    if (f.kind === 'choices') {
      const picked = f.options.filter((_, i) => values[choiceKey(f.name, i)] === 'true').map((o) => o.value);
      if (picked.length === 0 && !f.required) continue;
      if (picked.length === 0) say('choose at least one.');
      else if (f.minItems !== undefined && picked.length < f.minItems) say(`choose at least ${f.minItems}.`);
      else if (f.maxItems !== undefined && picked.length > f.maxItems) say(`choose at most ${f.maxItems}.`);
      else content[f.name] = picked;
      continue;
    }
    const raw = values[f.name] ?? '';
    if (f.kind === 'boolean') {
      // A switch always has a state: unset means off.
      content[f.name] = raw === 'true';
      continue;
    }
    if (raw.trim() === '') {
      if (f.required) say('this is required.');
      continue;
    }
    switch (f.kind) {
      case 'text':
        if (raw.length > MAX_TEXT) say(`at most ${MAX_TEXT} characters.`);
        else if (f.minLength !== undefined && raw.length < f.minLength) say(`at least ${f.minLength} characters.`);
        else if (f.maxLength !== undefined && raw.length > f.maxLength) say(`at most ${f.maxLength} characters.`);
        else if (f.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(raw)) say('not an email address.');
        else if (f.format === 'uri' && !URL.canParse(raw)) say('not a URI.');
        else if (f.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(raw)) say('not a date (YYYY-MM-DD).');
        else if (f.format === 'date-time' && Number.isNaN(Date.parse(raw))) say('not a date and time.');
        else content[f.name] = raw;
        break;
      case 'choice':
        if (f.options.some((o) => o.value === raw)) content[f.name] = raw;
        else say('not one of the choices.');
        break;
      case 'number':
      case 'integer': {
        const n = Number(raw.trim());
        if (!Number.isFinite(n)) say('not a number.');
        else if (f.kind === 'integer' && !Number.isSafeInteger(n)) say('not a whole number.');
        else if (f.minimum !== undefined && n < f.minimum) say(`at least ${f.minimum}.`);
        else if (f.maximum !== undefined && n > f.maximum) say(`at most ${f.maximum}.`);
        else content[f.name] = n;
        break;
      }
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, content };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
