import { loadSiteSettings } from '../../api/site-settings';
import { detect, type Detector, type Outcome } from '../../lib/echo';
import { toReportCard, type CardView } from '../../lib/geo-view';
import { LOCAL_SOURCE, locate } from '../../lib/locate';
import type { SectionBody } from '../../lib/report-sections';
import { detectors } from './detectors';

/** One detector's answer, located by the local database when it named an address. */
export interface AddressRow {
  detector: Detector;
  outcome: Outcome;
  view: CardView | null;
}

/**
 * The addresses test without its page (the run-all page's card): every detector
 * asked at once, each answer handed over as it lands, located, then the report's
 * `ipinfo` cards in the detectors' order.
 */
export async function runAddresses(options: {
  locale: string;
  signal: AbortSignal;
  nameOf: (detector: Detector) => string;
  /** The detectors asked, in their order, once the settings have named this site's own. */
  onDetectors?: (all: Detector[]) => void;
  /** Each detector's row as it lands, with the detector's place in the list. */
  onRow: (row: AddressRow, index: number) => void;
}): Promise<SectionBody<'ipinfo'>> {
  const { addresses } = await loadSiteSettings();
  const all = detectors(addresses);
  options.onDetectors?.(all);
  const rows = await Promise.all(
    all.map(async (detector, index): Promise<AddressRow> => {
      const outcome = await detect(detector, fetch, options.signal);
      const row: AddressRow = { detector, outcome, view: null };
      if (outcome.state === 'done') {
        row.view = await locate(LOCAL_SOURCE, outcome.ip, options.locale, options.signal).catch(() => null);
      }
      if (!options.signal.aborted) options.onRow(row, index);
      return row;
    }),
  );
  const cards = rows.flatMap(({ detector, outcome, view }) => {
    if (outcome.state !== 'done') return [];
    const source = options.nameOf(detector);
    return [view ? toReportCard({ ...view, source }) : { source, ip: outcome.ip }];
  });
  return { cards: cards.slice(0, 8) };
}
