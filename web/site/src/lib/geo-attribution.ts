/** Whose local database the server has loaded, as /site-settings.json's `geoDatabase` says. */
export type GeoDatabase = 'maxmind' | 'dbip';

/**
 * The credit a database's licence asks for, in the licensor's own words: the
 * text before the link, the link's text and address, the text after. Never
 * translated, as the licences give the wording (DB-IP Lite is CC BY 4.0).
 */
export interface Attribution {
  lead: string;
  link: string;
  href: string;
  tail: string;
}

interface LocalDatabase {
  /** The geo-local card's title: the name visitors know. */
  name: string;
  attribution: Attribution;
}

const DATABASES: Record<GeoDatabase, LocalDatabase> = {
  maxmind: {
    name: 'MaxMind GeoLite2',
    attribution: {
      lead: 'This product includes GeoLite2 data created by MaxMind, available from ',
      link: 'https://www.maxmind.com',
      href: 'https://www.maxmind.com',
      tail: '.',
    },
  },
  dbip: {
    name: 'DB-IP Lite',
    attribution: { lead: '', link: 'IP Geolocation by DB-IP', href: 'https://db-ip.com', tail: '' },
  },
};

/**
 * The geo-local card's title: the loaded database's publisher, else the one the
 * server is set to download (api/geo-database.ts); before the settings arrive,
 * the spec's publisher, MaxMind.
 */
export function localSourceName(database: GeoDatabase | null): string {
  return DATABASES[database ?? 'maxmind'].name;
}

/** A geo source's name as shown: the local database's is its publisher's. */
export function sourceName(source: { route: string; name: string }, database: GeoDatabase | null): string {
  return source.route === 'geo-local' ? localSourceName(database) : source.name;
}

/** The credit to show beside the local database's data; null when none is loaded. */
export function attributionOf(database: GeoDatabase | null): Attribution | null {
  return database ? DATABASES[database].attribution : null;
}

/**
 * The credit for a shared report's card, known by the source name it was
 * saved with: the local database's data keeps its credit wherever it is shown.
 */
export function attributionOfSource(source: string): Attribution | null {
  const found = (Object.keys(DATABASES) as GeoDatabase[]).find((database) => DATABASES[database].name === source);
  return found ? DATABASES[found].attribution : null;
}

/** Every database's credit, for a page that names them all before one is known to be loaded. */
export function everyAttribution(): Attribution[] {
  return Object.values(DATABASES).map((database) => database.attribution);
}
