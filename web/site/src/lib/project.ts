/** A licence's text, from its SPDX identifier (/site-settings.json's `source.licence`, package.json's `license`). */
export const licenceUrl = (spdx: string): string => `https://spdx.org/licenses/${encodeURIComponent(spdx)}.html`;

/** The repository's page, from its `owner/name` (/site-settings.json's `repository`). */
export const repositoryUrl = (name: string): string => `https://github.com/${name}`;
