/**
 * The files a `MEDIA:` tag attaches (red team 8): Hermes sends the file a tag names with the message. The path may
 * be quoted or backquoted (`MEDIA:"…"`, ``MEDIA:`…` ``), wrapped in brackets, or followed by punctuation; each
 * reading is returned, so a tag the floor reads one way and Hermes another is judged both ways. Pure.
 */

const tag = /MEDIA:\s*(?:"([^"\n]+)"|'([^'\n]+)'|`([^`\n]+)`|(\S+))/g;
/** Characters a sentence or markup puts around a path that are not part of it. */
const around = /^[([{<"'`]+|[)\]}>"'`.,;:!?]+$/g;

/** Every path a text's MEDIA: tags may name: as written, and without the quotes, brackets and punctuation around it. */
export const mediaPaths = (text: string): string[] => {
  if (!text.includes('MEDIA:')) return [];
  const out = new Set<string>();
  for (const m of text.matchAll(tag)) {
    const raw = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim();
    if (raw === '') continue;
    out.add(raw);
    const bare = raw.replace(around, '');
    if (bare !== '') out.add(bare);
  }
  return [...out];
};

export const mediaTagExamples: readonly { readonly text: string; readonly paths: readonly string[] }[] = [
  { text: 'done MEDIA:/tmp/report.png', paths: ['/tmp/report.png'] },
  { text: 'see MEDIA:"/x/data/http-token"', paths: ['/x/data/http-token'] },
  { text: 'see MEDIA:`/x/data/http-token`.', paths: ['/x/data/http-token'] },
  { text: 'see (MEDIA:/x/data/http-token)', paths: ['/x/data/http-token)', '/x/data/http-token'] },
  { text: 'report\nMEDIA: /x/keys/a.key, thanks', paths: ['/x/keys/a.key,', '/x/keys/a.key'] },
  { text: 'no tags here', paths: [] },
];
