/** The licence the project's code is published under (LICENSE at the repository's root). */
export const LICENCE = 'MIT';

/** The repository's page, from its `owner/name` (/site-settings.json's `repository`). */
export const repositoryUrl = (name: string): string => `https://github.com/${name}`;
