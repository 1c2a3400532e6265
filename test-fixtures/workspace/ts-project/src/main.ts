// Uses Parser from parser.ts; some lines have emoji and tabs before a use, so columns count characters.
import { Parser, makeParser } from './parser';

const banner = '🚀🚀 ready'; const first = new Parser(true);

export function run(input: string): number {
		const second = makeParser();
		return first.parse(input) + second.parse(input);
}
