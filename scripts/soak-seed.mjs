/**
 * The soak's seed: the same every run unless asked otherwise, so that a CI run that fails can be
 * replayed and two runs of one commit make the same choices. SOAK_SEED=random picks a new one
 * (printed, to replay it); SOAK_SEED=S replays S.
 */
export const DEFAULT_SOAK_SEED = 20_240_611;

/** The seed SOAK_SEED asks for: unset or empty gives DEFAULT_SOAK_SEED, "random" a new one. */
export function soakSeed(text) {
  if (text === undefined || text === '') return DEFAULT_SOAK_SEED;
  if (text === 'random') return Math.floor(Math.random() * 2 ** 32);
  const seed = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(seed) || seed >= 2 ** 32)
    throw new Error(`SOAK_SEED must be "random" or a whole number from 0 to ${2 ** 32 - 1}; it is "${text}"`);
  return seed;
}

/** What a run prints before the soak: its seed, and how to replay it or pick another. */
export function soakSeedLine(seed) {
  return `soak seed ${seed} (replay: SOAK_SEED=${seed} npm run test:soak; a new seed: SOAK_SEED=random)`;
}
