import { randomInt } from 'node:crypto';
import { InlineKeyboard } from 'grammy';
import { callbackData } from '../callback-data.ts';

/**
 * The optional button challenge before a join (against bot farms): press the button showing the
 * named picture among four. Weak against a determined human, but it makes a scripted farm read
 * and match the question, and each wrong press changes the pictures.
 */
export const PICTURES = ['🍎', '🚗', '🐱', '⚽', '🌙', '🎸', '🌵', '🚀'] as const;
export const challengeData = callbackData('ch', ['pick', 'nonce']);
export const MAX_WRONG = 3;

export interface Challenge {
  publicId: string;
  /** Index into PICTURES of the right answer, and of the four shown, in order. */
  answer: number;
  shown: number[];
  nonce: string;
  wrong: number;
}

export function newChallenge(publicId: string, wrong = 0): Challenge {
  const pool = [...PICTURES.keys()];
  const shown: number[] = [];
  while (shown.length < 4) shown.push(pool.splice(randomInt(pool.length), 1)[0]);
  return {
    publicId,
    shown,
    answer: shown[randomInt(shown.length)],
    nonce: randomInt(2 ** 40).toString(36),
    wrong,
  };
}

export function challengeKeyboard(challenge: Challenge): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const pick of challenge.shown) {
    keyboard.text(PICTURES[pick], challengeData.pack({ pick: String(pick), nonce: challenge.nonce }));
  }
  return keyboard;
}
