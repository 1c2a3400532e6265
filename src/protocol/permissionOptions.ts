// Which of an agent's permission options an answer selects. ACP agents list their options in any
// order (`allow_always` may come first), and "always" changes what the agent asks later, so an
// answer given once selects a once option; an always option only when the agent offers no other,
// and then whoever asks must say so. Pure.

/** The part of ACP's PermissionOption this choice needs (kept structural: the protocol imports nothing). */
export interface PermissionOptionLike {
  optionId: string;
  name: string;
  kind: string;
}

/** The option that approves (`allow`) or refuses (`reject`): the once kind, else the always kind. */
export function preferredOption<O extends PermissionOptionLike>(options: readonly O[], answer: 'allow' | 'reject'): O | undefined {
  return options.find((o) => o.kind === `${answer}_once`) ?? options.find((o) => o.kind === `${answer}_always`);
}

/** Whether an option's effect outlasts this one request (`allow_always`, `reject_always`). */
export const isAlwaysOption = (option: PermissionOptionLike): boolean => option.kind.endsWith('_always');
