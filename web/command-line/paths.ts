import type { IncomingHttpHeaders } from 'node:http';
import { commandLineFormat, type Format } from './client.js';

/** What a path prints: the address (`/`: or /json's record, to a JSON client), /json's record, or one field of it. */
export type Printed =
  | { kind: 'root' }
  | { kind: 'address' }
  | { kind: 'record' }
  | { kind: 'place'; field: 'country' | 'country_iso' | 'city'; what: string }
  | { kind: 'network'; field: 'asn' | 'asn_org'; what: string };

export interface FacePath {
  url: string;
  summary: string;
  printed: Printed;
}

const place = (url: string, summary: string, field: 'country' | 'country_iso' | 'city', what: string): FacePath => ({
  url,
  summary,
  printed: { kind: 'place', field, what },
});
const network = (url: string, summary: string, field: 'asn' | 'asn_org', what: string): FacePath => ({
  url,
  summary,
  printed: { kind: 'network', field, what },
});

/** The ifconfig.co engine's paths, so its users' scripts work here unchanged. */
export const FACE_PATHS: readonly FacePath[] = [
  { url: '/', summary: "The caller's address (or /json's answer, asked for as JSON)", printed: { kind: 'root' } },
  { url: '/ip', summary: "The caller's address", printed: { kind: 'address' } },
  place('/country', "The address's country, in English", 'country', 'country'),
  place('/country-iso', "The address's country as its ISO 3166-1 code", 'country_iso', 'country code'),
  place('/city', "The address's city, in English", 'city', 'city'),
  network('/asn', "The address's autonomous system, as AS15169", 'asn', 'AS number'),
  network('/asn-org', "The name of the organisation of the address's autonomous system", 'asn_org', 'AS organisation'),
  {
    url: '/json',
    summary: 'The address with its record from the local databases, as JSON',
    printed: { kind: 'record' },
  },
];

const BY_URL = new Map(FACE_PATHS.map((path) => [path.url, path]));

/** A request the face answers: a command-line client's GET or HEAD of one of its paths, as written. */
export interface FaceRequest {
  path: FacePath;
  format: Format;
}

/** The face's request this is, or undefined (a browser, another path): then the site answers. */
export function faceRequest(url: string, headers: IncomingHttpHeaders): FaceRequest | undefined {
  const query = url.indexOf('?');
  const path = BY_URL.get(query < 0 ? url : url.slice(0, query));
  if (!path) return undefined;
  const format = commandLineFormat(headers);
  return format && { path, format };
}
