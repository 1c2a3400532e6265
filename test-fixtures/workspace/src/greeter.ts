// A small TypeScript file: the context tests list its symbols through VS Code's symbol providers.
export class Greeter {
  constructor(private readonly name: string) {}

  greet(): string {
    return `Hello, ${this.name}!`;
  }
}

export function shout(text: string): string {
  return text.toUpperCase();
}
