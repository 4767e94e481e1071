/// <reference lib="webworker" />
import { coalesced } from '#core/change-feed.ts';
import type { ChangeFeed } from '#core/service/service.ts';

const CHANNEL_NAME = 'anima-changes';
/** At most one notice per this many milliseconds: a fast run does not make the other tabs read storage on every cycle. */
const NOTICE_INTERVAL_MS = 150;

/**
 * Notices of writes between this origin's agent workers, over a BroadcastChannel: the writing
 * tab's worker posts one (coalesced) after its writes commit; the others hear it (a channel does
 * not hear its own posts). A notice carries nothing: it only says "read again".
 */
export function openChangeFeed(): ChangeFeed {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  return {
    announce: coalesced(() => channel.postMessage('changed'), NOTICE_INTERVAL_MS),
    onChange: (listener) => channel.addEventListener('message', () => listener()),
  };
}
