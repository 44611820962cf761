import type { NewWebpage } from '../../src/store/webpages.ts';

/** A small page to record straight into a store: no link, host or excerpt. */
export function newWebpage(
  fields: Pick<NewWebpage, 'id' | 'title' | 'text' | 'createTime'>,
): NewWebpage {
  return { excerpt: '', link: null, host: null, ext: 'html', size: 1, ...fields };
}
