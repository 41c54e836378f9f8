/**
 * The OpenSearch description of the portal (decision 0065): what a browser needs to add
 * "Signpost" as a search engine of its address bar. Every address in it is absolute, built
 * from PUBLIC_URL, the address people use.
 */

/** The portal opened with its search filled in: the web app reads `q` (lib/search-address.ts). */
export const SEARCH_PATH = '/?q={searchTerms}';

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function openSearchDescription(publicUrl: string): string {
  const base = escapeXml(publicUrl.replace(/\/$/, ''));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/" xmlns:moz="http://www.mozilla.org/2006/browser/search/">',
    '  <ShortName>Signpost</ShortName>',
    '  <Description>Search the links of your Signpost portal</Description>',
    '  <InputEncoding>UTF-8</InputEncoding>',
    `  <Image width="192" height="192" type="image/png">${base}/icons/icon-192.png</Image>`,
    `  <Url type="text/html" method="get" template="${base}${SEARCH_PATH}"/>`,
    `  <Url type="application/opensearchdescription+xml" rel="self" template="${base}/opensearch.xml"/>`,
    `  <moz:SearchForm>${base}/</moz:SearchForm>`,
    '</OpenSearchDescription>',
    '',
  ].join('\n');
}
