/**
 * One page of a listing as the server answers it: `results`, `totalCount`, and the page's `links`
 * (`self`, then `previous` and `next` where there are such pages), each keeping `pretty` when asked.
 */
import { API_ROOT, type ApiRequest, type ApiResult, pagination } from "./answers";

/**
 * The page `req` asks for (`pageNum`, `itemsPerPage`) of `all`, each item shown by `view`, with links
 * to `path` (below the API root, already percent-encoded); a bad page parameter is the refusal.
 */
export function listPage<T>(
  req: ApiRequest,
  path: string,
  all: readonly T[],
  view: (item: T) => unknown,
): ApiResult {
  const page = pagination(req.query);
  if ("status" in page) return page;
  const { pageNum, itemsPerPage } = page;
  const totalCount = all.length;
  const start = (pageNum - 1) * itemsPerPage;
  const results = all.slice(start, start + itemsPerPage).map(view);
  const pretty = req.query.pretty;
  const href = (n: number) =>
    `${req.origin}${API_ROOT}${path}?pageNum=${n}&itemsPerPage=${itemsPerPage}${pretty === undefined ? "" : `&pretty=${encodeURIComponent(pretty)}`}`;
  const links: { href: string; rel: string }[] = [{ href: href(pageNum), rel: "self" }];
  if (pageNum > 1 && totalCount > 0) {
    links.push({ href: href(Math.min(pageNum - 1, Math.ceil(totalCount / itemsPerPage))), rel: "previous" });
  }
  if (start + itemsPerPage < totalCount) links.push({ href: href(pageNum + 1), rel: "next" });
  return { status: 200, list: true, body: { links, results, totalCount } };
}
