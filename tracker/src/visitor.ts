/**
 * The visitor id: a UUID kept in the site's own localStorage (first-party),
 * so one browser is one visitor across visits. With `data-cookieless` nothing
 * is stored and no id is sent (the server derives a daily one). Where storage
 * is blocked, the id lasts for this page only.
 */
import { uuid } from './uuid';

const STORAGE_KEY = 'leadlight_vid';

export function visitorId(cookieless: boolean): string | undefined {
  if (cookieless) return undefined;
  try {
    let id = localStorage.getItem(STORAGE_KEY);
    if (id === null || !/^[0-9a-f-]{36}$/i.test(id)) {
      id = uuid();
      localStorage.setItem(STORAGE_KEY, id);
    }
    return id;
  } catch {
    return uuid();
  }
}
