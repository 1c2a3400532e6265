// ElizACP's conversation script: our own ELIZA-style keyword/decomposition/reassembly rules.
// This file holds the shared tables and the classic keywords; script-coding.ts holds the coding
// ones. It is plain data so the engine (engine.ts) stays small and the script can grow without
// touching matching logic.
//
// Notation (close to Weizenbaum's original):
//   - `words` are the keyword and its synonyms; a multi-word keyword matches as a phrase.
//   - `rank` decides which keyword wins when several occur (higher first, then earliest).
//   - A decomposition is a space-separated pattern over the normalized input; `*` matches any
//     run of words (possibly empty). Literal words match whole words only.
//   - In a reassembly, `(n)` is replaced by the n-th `*` capture (1-based) after pronoun
//     reflection (I → you, my → your, …). Templates that reference an empty capture are skipped.
import { CODING_KEYWORDS } from './script-coding';
import type { Keyword } from './script-types';

// Contractions are expanded before matching so patterns only have to spell one form.
export const PRE_SUBSTITUTIONS: ReadonlyArray<readonly [string, string]> = [
  ["i'm", 'i am'],
  ["i've", 'i have'],
  ["i'll", 'i will'],
  ["i'd", 'i would'],
  ["you're", 'you are'],
  ["you've", 'you have'],
  ["you'll", 'you will'],
  ["don't", 'do not'],
  ["doesn't", 'does not'],
  ["didn't", 'did not'],
  ["can't", 'cannot'],
  ["won't", 'will not'],
  ["isn't", 'is not'],
  ["aren't", 'are not'],
  ["wasn't", 'was not'],
  ["it's", 'it is'],
  ["that's", 'that is'],
  ['dont', 'do not'],
  ['cant', 'cannot'],
  ['im', 'i am'],
];

// Word-level pronoun reflections applied to captured fragments ("my tests fail" → "your tests
// fail"). `you` is context dependent and handled in the engine (you are → I am, but
// "thank you" → "thank me").
export const REFLECTIONS: Readonly<Record<string, string>> = {
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  myself: 'yourself',
  am: 'are',
  your: 'my',
  yours: 'mine',
  yourself: 'myself',
  we: 'you',
  us: 'you',
  our: 'your',
  ours: 'yours',
};

// Said when no keyword matches. Deliberately open-ended, as in the original.
export const FALLBACKS: readonly string[] = [
  'Please go on.',
  'Tell me more about that.',
  'How does that make you feel about your code?',
  'I see. And what does your test suite say about that?',
  'Interesting. Could you say that another way?',
  'What would a rubber duck ask you right now?',
  'Let us step back. What problem are you really trying to solve?',
];

export const EMPTY_INPUT_REPLY = "You seem quiet today. What's on your mind?";

// Appended by the 'eliza-verbose' model so the two models are distinguishable in tests.
export const VERBOSE_SUFFIXES: readonly string[] = [
  'Take your time; I am only a pattern matcher, but I am listening.',
  'Remember: every bug is a story about an assumption.',
  'I have no model of your code, only of your words.',
];

// Coding keywords first: on equal rank and position the earlier entry wins.
export const KEYWORDS: readonly Keyword[] = [
  ...CODING_KEYWORDS,
  {
    words: ['sorry', 'apologize'],
    rank: 3,
    rules: [
      {
        pattern: '*',
        replies: ['Please do not apologize.', 'Apologies are not necessary; bugs happen to everyone.'],
      },
    ],
  },
  {
    words: ['remember'],
    rank: 5,
    rules: [
      {
        pattern: '* i remember *',
        replies: ['Do you often think of (2)?', 'What else does (2) remind you of?'],
      },
      {
        pattern: '* do you remember *',
        replies: ['Did you think I would forget (2)?', 'Why do you want me to recall (2)?'],
      },
    ],
  },
  {
    words: ['i am', 'i was'],
    rank: 3,
    rules: [
      {
        pattern: '* i am stuck *',
        replies: ['Where exactly are you stuck?', 'What did you try just before you got stuck?'],
      },
      {
        pattern: '* i am *',
        replies: ['How long have you been (2)?', 'Do you believe it is normal to be (2)?', 'Did you come to me because you are (2)?'],
      },
      {
        pattern: '* i was *',
        replies: ['Were you really (2)?', 'Why do you tell me you were (2) now?'],
      },
    ],
  },
  {
    words: ['i feel', 'i felt'],
    rank: 4,
    rules: [
      {
        pattern: '* i feel *',
        replies: ['Tell me more about feeling (2).', 'Do you often feel (2) when you code?'],
      },
      {
        pattern: '*',
        replies: ['Tell me more about those feelings.'],
      },
    ],
  },
  {
    words: ['i want', 'i need', 'i wish'],
    rank: 3,
    rules: [
      {
        pattern: '* i want *',
        replies: ['What would it mean to you if you got (2)?', 'Why do you want (2)?'],
      },
      {
        pattern: '* i need *',
        replies: ['Why do you need (2)?', 'Would it really help you to get (2)?'],
      },
      {
        pattern: '*',
        replies: ['What would change if you had it?'],
      },
    ],
  },
  {
    words: ['i cannot'],
    rank: 3,
    rules: [
      {
        pattern: '* i cannot *',
        replies: ['How do you know you cannot (2)?', 'Have you tried?', 'Perhaps you could (2) if you split it into smaller steps.'],
      },
    ],
  },
  {
    words: ['you are', 'you were'],
    rank: 2,
    rules: [
      {
        pattern: '* you are *',
        replies: ['What makes you think I am (2)?', 'Does it please you to believe I am (2)?'],
      },
      {
        pattern: '*',
        replies: ['We were discussing you, not me.'],
      },
    ],
  },
  {
    words: ['why'],
    rank: 2,
    rules: [
      {
        pattern: '* why do not you *',
        replies: ['Do you believe I do not (2)?', 'Perhaps I will (2) in good time.'],
      },
      {
        pattern: '* why cannot i *',
        replies: ['Do you think you should be able to (2)?', 'What is stopping you from (2)?'],
      },
      {
        pattern: '*',
        replies: ['Why do you ask?', 'What answer would please you most?'],
      },
    ],
  },
  {
    words: ['because'],
    rank: 2,
    rules: [
      {
        pattern: '*',
        replies: ['Is that the real reason?', 'Does any other reason come to mind?', 'Does that reason explain anything else?'],
      },
    ],
  },
  {
    words: ['my'],
    rank: 1,
    rules: [
      {
        pattern: '* my *',
        replies: ['Your (2)?', 'Why do you say your (2)?', 'Does anyone else care about your (2)?'],
      },
    ],
  },
  {
    words: ['always', 'never'],
    rank: 1,
    rules: [
      {
        pattern: '*',
        replies: ['Can you think of a specific example?', 'Really, every time?'],
      },
    ],
  },
  {
    words: ['yes'],
    rank: 0,
    rules: [{ pattern: '*', replies: ['You seem quite sure.', 'I see. Go on.'] }],
  },
  {
    words: ['no', 'nope'],
    rank: 0,
    rules: [{ pattern: '*', replies: ['Why not?', 'Are you saying no just to be negative?'] }],
  },
  {
    words: ['hello', 'hi', 'hey', 'greetings'],
    rank: 0,
    rules: [
      {
        pattern: '*',
        replies: [
          'How do you do. Please tell me about your code.',
          'Hello. What are you working on today?',
          'Hi there. Which bug brings you here?',
        ],
      },
    ],
  },
];
