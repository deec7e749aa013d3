/**
 * Answered to navigations while the site folder holds no index.html, so a
 * server started before `npm run build` says what is missing instead of 404.
 */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Site not built</title>
  </head>
  <body>
    <main>
      <h1>The site is not built</h1>
      <p>The API is running, but the site's files are missing. Run <code>npm run build</code>; the server picks the build up without a restart.</p>
    </main>
  </body>
</html>
`;
