import type { ReportSectionId, ReportSections } from '../lib/report-sections.js';
import type { SiteEventName, SiteEvents } from '../lib/site-events.js';

/** Every achievement the companion API knows, in the order the profile lists them (the reference's). */
export const ACHIEVEMENTS = [
  'IAmHuman',
  'MakingBigNews',
  'BarelyEnough',
  'RapidPace',
  'TorrentFlow',
  'SteadyGoing',
  'TooFastTooSimple',
  'SwiftAscent',
  'ItIsOpen',
  'CuriousCat',
  'CrossingTheWall',
  'SurfaceCheck',
  'HalfwayThere',
  'FullySecured',
  'JustInCase',
  'HiddenWell',
  'SlipUp',
  'ResourceHog',
  'EnergySaver',
  'CleverTrickery',
  'PrettyDirty',
  'SqueakyClean',
  'WalkWithPenguins',
  'GlobeTrotter',
  'HelloWorld',
  'AddSweetAdd',
  'GenerousDonor',
] as const;
export type Achievement = (typeof ACHIEVEMENTS)[number];

export function isAchievement(name: string): name is Achievement {
  return (ACHIEVEMENTS as readonly string[]).includes(name);
}

type Section<K extends ReportSectionId> = NonNullable<ReportSections[K]>;

// The reference's thresholds (Mb/s), each the least speed that unlocks its achievement.
const DOWNLOAD: Array<[number, Achievement]> = [
  [100, 'BarelyEnough'],
  [500, 'RapidPace'],
  [1000, 'TorrentFlow'],
];
const UPLOAD: Array<[number, Achievement]> = [
  [50, 'SteadyGoing'],
  [200, 'TooFastTooSimple'],
  [1000, 'SwiftAscent'],
];
const reached = (speed: number | null | undefined, steps: Array<[number, Achievement]>): Achievement[] =>
  steps.filter(([least]) => (speed ?? 0) >= least).map(([, name]) => name);

// A result's achievements, by the section the tool recorded: the reference's
// rules for the tools that fill a report section.
const bySection: { [K in ReportSectionId]?: (section: Section<K>) => Achievement[] } = {
  speedtest: (s) => [...reached(s.downloadMbps, DOWNLOAD), ...reached(s.uploadMbps, UPLOAD)],
  ruletest: (s) => (s.uniqueIPCount >= 8 ? ['CrossingTheWall'] : []),
  invisibility: (s) => {
    const out: Achievement[] = ['JustInCase'];
    if (s.scores.proxy === 0 && s.scores.vpn === 0) out.push('HiddenWell');
    if (s.scores.proxy > 50 || s.scores.vpn > 50) out.push('SlipUp');
    return out;
  },
  ipinfo: (s) => {
    const out = new Set<Achievement>();
    for (const card of s.cards) {
      if (card.qualityScore === 1) out.add('PrettyDirty');
      if (card.qualityScore === 100) out.add('SqueakyClean');
      if (card.countryCode === 'AQ') out.add('WalkWithPenguins');
    }
    return [...out];
  },
  connectivity: (s) => (s.targets.some((target) => target.custom) ? ['AddSweetAdd'] : []),
};

/** The achievements a tool's result earns. */
export function unlockedBySection<K extends ReportSectionId>(id: K, section: Section<K>): Achievement[] {
  const rule = bySection[id] as ((section: Section<K>) => Achievement[]) | undefined;
  return rule ? rule(section) : [];
}

/** The reference's checklist thresholds: any tick, more than half, every item. */
function checklist({ done, total }: SiteEvents['checklistProgress']): Achievement[] {
  if (total <= 0 || done <= 0) return [];
  const out: Achievement[] = ['SurfaceCheck'];
  if (done / total > 0.5) out.push('HalfwayThere');
  if (done >= total) out.push('FullySecured');
  return out;
}

// What the visitor does that fills no report section (lib/site-events.ts), by the reference's rules. The
// reference's CuriousCat looks for its own domain in the query; the how-to text names it, so it stays.
const byEvent: { [K in SiteEventName]: (detail: SiteEvents[K]) => Achievement[] } = {
  checklistProgress: checklist,
  censorshipTested: ({ blocked }) => (blocked ? ['ItIsOpen'] : []),
  whoisLookup: ({ query }) => (query.toLowerCase().includes('ipcheck.ing') ? ['CuriousCat'] : []),
  historyUpdated: ({ countries }) => (countries >= 10 ? ['GlobeTrotter'] : []),
};

/** The achievements an event earns. */
export function unlockedByEvent<K extends SiteEventName>(name: K, detail: SiteEvents[K]): Achievement[] {
  return (byEvent[name] as (detail: SiteEvents[K]) => Achievement[])(detail);
}

/** The achievements a loaded profile earns: being signed in at all, and more than 1000 uses. */
export function unlockedByProfile(profile: { functionUses?: { total?: unknown } }): Achievement[] {
  const total = profile.functionUses?.total;
  return typeof total === 'number' && total > 1000 ? ['IAmHuman', 'MakingBigNews'] : ['IAmHuman'];
}
