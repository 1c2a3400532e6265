// The coding-themed half of ElizACP's script (the classic ELIZA keywords are in script.ts).
// Same notation as there: synonyms, a rank, decomposition patterns with `*`, and reassembly
// templates where `(n)` is the n-th reflected capture.
import type { Keyword } from './script-types';

export const CODING_KEYWORDS: readonly Keyword[] = [
  {
    words: ['borrow checker', 'lifetime', 'lifetimes', 'borrow'],
    rank: 9,
    rules: [
      {
        pattern: '* borrow checker *',
        replies: [
          'What is the borrow checker trying to protect you from?',
          'Does the borrow checker remind you of anyone?',
          'Perhaps the borrow checker sees an aliasing you do not. Who else holds that reference?',
        ],
      },
      {
        pattern: '*',
        replies: [
          'Lifetimes are only promises about who outlives whom. Which promise is hard to keep?',
          'Could you own the data instead of borrowing it?',
        ],
      },
    ],
  },
  {
    words: ['rust', 'cargo', 'crate', 'crates'],
    rank: 7,
    rules: [
      {
        pattern: '* rewrite * in rust *',
        replies: ['Why do you want to rewrite (2) in Rust?', 'What would (2) gain from being rewritten in Rust?'],
      },
      {
        pattern: '*',
        replies: [
          'How long have you been writing Rust?',
          'Does the compiler feel like a friend or a critic when you write Rust?',
          'What does cargo tell you when you run it?',
        ],
      },
    ],
  },
  {
    words: ['bug', 'bugs', 'error', 'errors', 'exception', 'exceptions', 'crashes', 'segfault'],
    rank: 8,
    rules: [
      {
        pattern: '* bug in my *',
        replies: ['Where in your (2) did you first notice the bug?', 'What makes you think the bug lives in your (2)?'],
      },
      {
        pattern: '* my code *',
        replies: ['What did your code do that you did not expect?', 'When did your code last work as you intended?'],
      },
      {
        pattern: '*',
        replies: [
          'Tell me more about this bug. When did it first appear?',
          'Bugs often reveal what we assumed. What did you assume here?',
          'Have you tried writing a failing test for it?',
          'How do you feel when the bug comes back?',
        ],
      },
    ],
  },
  {
    words: ['test', 'tests', 'testing', 'flaky', 'unit test', 'ci'],
    rank: 7,
    rules: [
      {
        pattern: '* flaky *',
        replies: [
          'A flaky test is a test that knows something you do not. What does it depend on?',
          'Is it the test that is flaky, or the code it tests?',
        ],
      },
      {
        pattern: '* tests fail *',
        replies: ['Which of your tests fail first, and what do they expect?', 'Do the tests fail the same way every time?'],
      },
      {
        pattern: '*',
        replies: [
          'How do you feel about your tests?',
          'What would a test for that look like?',
          'Do your tests tell you what is wrong, or only that something is wrong?',
        ],
      },
    ],
  },
  {
    words: ['refactor', 'refactoring', 'cleanup', 'clean up', 'technical debt', 'tech debt'],
    rank: 6,
    rules: [
      {
        pattern: '* refactor *',
        replies: [
          'What would refactoring (2) give you that you do not have now?',
          'Why do you want to refactor (2) now, rather than later?',
          'Do you have tests that protect (2) while you refactor it?',
        ],
      },
      {
        pattern: '*',
        replies: [
          'Refactoring is a conversation with your past self. What would you tell them?',
          'Which part of the code do you dread touching?',
        ],
      },
    ],
  },
  {
    words: ['type', 'types', 'typescript', 'generic', 'generics'],
    rank: 5,
    rules: [
      {
        pattern: '* any *',
        replies: ['Does using any feel like giving up, or like letting go?'],
      },
      {
        pattern: '*',
        replies: [
          'What is the type trying to tell you?',
          'Would a narrower type make the problem impossible to write?',
          'Do you trust your types more than your tests?',
        ],
      },
    ],
  },
  {
    words: ['compiler', 'compile', 'build', 'linker'],
    rank: 5,
    rules: [
      {
        pattern: '*',
        replies: [
          'What exactly does the compiler say?',
          'Have you read the whole error message, slowly, from the top?',
          'When did the build last succeed?',
        ],
      },
    ],
  },
  {
    words: ['merge conflict', 'conflict', 'conflicts', 'rebase', 'git'],
    rank: 5,
    rules: [
      {
        pattern: '*',
        replies: [
          'Conflicts happen when two people want different things. What do you want here?',
          'Would a smaller commit have avoided this?',
        ],
      },
    ],
  },
  {
    words: ['deadline', 'estimate', 'estimates', 'sprint'],
    rank: 5,
    rules: [
      {
        pattern: '*',
        replies: ['Who set the deadline, and do they know what you know now?', 'How do estimates make you feel?'],
      },
    ],
  },
  {
    words: ['production', 'prod', 'deploy', 'deployment', 'outage'],
    rank: 6,
    rules: [
      {
        pattern: '*',
        replies: ['What happened the last time you deployed on a Friday?', 'Can you roll it back?', 'What does the monitoring say?'],
      },
    ],
  },
  {
    words: ['legacy', 'documentation', 'docs', 'comments'],
    rank: 4,
    rules: [
      {
        pattern: '*',
        replies: [
          'Someone once wrote this with good intentions. What were they trying to do?',
          'Would writing it down help you understand it?',
        ],
      },
    ],
  },
  {
    words: ['computer', 'computers', 'machine', 'ai', 'agent', 'llm', 'robot'],
    rank: 4,
    rules: [
      {
        pattern: '*',
        replies: [
          'Do computers worry you?',
          'Does it bother you that I am just a pattern matcher?',
          'What do you think agents like me can really do?',
        ],
      },
    ],
  },
];
