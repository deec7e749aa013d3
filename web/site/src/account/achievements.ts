import { reactive } from 'vue';
import { getUserInfo, putAchievement, type UserInfo } from '../api/user';
import { collectedSections, onSectionRecorded, type ReportSectionId } from '../lib/report-sections';
import { SECTION_IDS } from '../features/registry';
import { loadStrings } from '../features/strings';
import { latestSiteEvents, onSiteEvent, type SiteEventName, type SiteEvents } from '../lib/site-events';
import { unlockedByEvent, unlockedByProfile, unlockedBySection } from './achievement-rules';
import { UnlockQueue } from './unlock-queue';

/** Unlocks are spaced as the reference spaces them, so each notice can be read. */
const SPACING_MS = 2000;

/** Achievement name → when it was unlocked (ms): the profile's, plus this visit's unlocks. */
export const held = reactive(new Map<string, number>());

let profile: Promise<UserInfo> | null = null;
let session = 0;
let stopListening: (() => void) | null = null;

function remember(info: UserInfo): void {
  for (const [name, state] of Object.entries(info.achievements ?? {})) {
    if (state?.achieved === true) held.set(name, typeof state.achievedTime === 'number' ? state.achievedTime : 0);
  }
}

/** The signed-in visitor's profile, fetched once per visit (`fresh` asks again); it also refreshes `held`. */
export function loadProfile(fresh = false, signal?: AbortSignal): Promise<UserInfo> {
  if (fresh || !profile) {
    const own = getUserInfo(signal).then((info) => {
      remember(info);
      return info;
    });
    profile = own;
    own.catch(() => {
      if (profile === own) profile = null;
    });
  }
  return profile;
}

/**
 * Starts unlocking for a signed-in visitor: waits for the profile (what is
 * already held is never sent again), then judges every result and event
 * already recorded in this visit and each new one. Without a profile (the companion
 * API not set up or failing) nothing is unlocked: it could not be recorded.
 * `unlocked` hears each name once it is recorded and its title can be shown
 * (the header's notice); the account is the caller's, so this module needs nothing of it.
 */
export async function startAchievements(unlocked: (name: string) => void): Promise<void> {
  if (stopListening) return;
  const own = ++session;
  // The achievements' names and how each is earned: only a signed-in visitor reads them, so they come
  // with this module instead of in every page's first texts (features/achievements/strings).
  const texts = loadStrings('achievements').catch(() => undefined);
  const info = await loadProfile().catch(() => null);
  if (!info || own !== session || stopListening) return;
  const queue = new UnlockQueue(async (name) => {
    await putAchievement(name);
    await texts;
    if (own !== session) return;
    held.set(name, Date.now());
    unlocked(name);
  }, SPACING_MS);
  queue.hold(held.keys());
  queue.offer(unlockedByProfile(info));
  const sections = collectedSections(SECTION_IDS);
  for (const id of SECTION_IDS) {
    const section = sections[id];
    if (section) queue.offer(unlockedBySection(id as ReportSectionId, section));
  }
  const events = latestSiteEvents();
  for (const name of Object.keys(events) as SiteEventName[]) {
    queue.offer(unlockedByEvent(name, events[name] as SiteEvents[typeof name]));
  }
  const stopSections = onSectionRecorded((id, section) => queue.offer(unlockedBySection(id, section)));
  const stopEvents = onSiteEvent((name, detail) => queue.offer(unlockedByEvent(name, detail)));
  stopListening = () => {
    stopSections();
    stopEvents();
  };
}

/** On sign-out: nothing more is unlocked or shown for this visitor. */
export function stopAchievements(): void {
  session++;
  stopListening?.();
  stopListening = null;
  profile = null;
  held.clear();
}
