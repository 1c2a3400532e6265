// Evaluates a parsed `ide_operation` program (dialect.ts) against an IDE backend: literals become
// JSON values, calls go to the function table (functions.ts), `[i]` indexes lists (negative
// counts from the end) and objects. Arguments are evaluated first, left to right. Pure apart from
// the backend it is given, so tests pass a fake one.
import { DialectError, parseProgram, sourceOf, type Expr } from './dialect';
import { FUNCTIONS, lookupFunction } from './functions';
import { ArgumentError, describe, IdeCallError, type IdeBackend, type Value } from './values';
import { errorText } from '../../../src/protocol/errorText';

export interface EvalContext {
  src: string;
  backend: IdeBackend;
}

export async function runProgram(src: string, backend: IdeBackend): Promise<Value> {
  return evaluate(parseProgram(src), { src, backend });
}

export async function evaluate(e: Expr, cx: EvalContext): Promise<Value> {
  switch (e.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return e.value;
    case 'null':
      return null;
    case 'array': {
      const out: Value[] = [];
      for (const item of e.items) out.push(await evaluate(item, cx));
      return out;
    }
    case 'object': {
      const out: { [key: string]: Value } = {};
      for (const { key, value } of e.entries) out[key] = await evaluate(value, cx);
      return out;
    }
    case 'index':
      return index(e, await evaluate(e.target, cx), await evaluate(e.index, cx), cx);
    case 'call': {
      const fn = lookupFunction(e.name);
      if (!fn) {
        throw new DialectError(
          `unknown function ${e.name}. Known functions: ${FUNCTIONS.map((f) => f.name).join(', ')} (names are case-insensitive)`,
          e.start,
          'evaluation',
        );
      }
      const args: Value[] = [];
      for (const a of e.args) args.push(await evaluate(a, cx));
      try {
        return await fn.run(args, cx.backend);
      } catch (err) {
        if (err instanceof ArgumentError) throw new DialectError(`${fn.name}: ${err.message}. Usage: ${fn.usage}`, e.start, 'evaluation');
        if (err instanceof DialectError || err instanceof IdeCallError) throw err;
        throw new IdeCallError(`${fn.name}: ${errorText(err)}`);
      }
    }
  }
}

function index(e: Extract<Expr, { type: 'index' }>, target: Value, key: Value, cx: EvalContext): Value {
  const what = sourceOf(cx.src, e.target);
  if (Array.isArray(target)) {
    if (typeof key !== 'number' || !Number.isInteger(key))
      throw new DialectError(`a list is indexed by a whole number, e.g. ${what}[0]; got ${describe(key)}`, e.index.start, 'evaluation');
    const i = key < 0 ? target.length + key : key;
    if (i < 0 || i >= target.length) {
      const size =
        target.length === 0 ? 'is empty' : `has ${target.length} item${target.length === 1 ? '' : 's'} (indexes 0 to ${target.length - 1})`;
      throw new DialectError(`index ${key} is out of range: ${what} ${size}`, e.index.start, 'evaluation');
    }
    return target[i]!;
  }
  if (target !== null && typeof target === 'object') {
    if (typeof key !== 'string')
      throw new DialectError(
        `an object is indexed by a key string, e.g. ${what}["file"]; got ${describe(key)}`,
        e.index.start,
        'evaluation',
      );
    if (!(key in target))
      throw new DialectError(
        `${what} has no key ${JSON.stringify(key)}; its keys are ${Object.keys(target).join(', ') || '(none)'}`,
        e.index.start,
        'evaluation',
      );
    return target[key]!;
  }
  throw new DialectError(`only lists and objects can be indexed; ${what} is ${describe(target)}`, e.start, 'evaluation');
}
