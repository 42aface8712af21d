/**
 * An event of the elements, built one way: it bubbles and crosses shadow roots (composed), so a page hears
 * it on the element or any ancestor; `cancelable` only where the element waits on the page's answer.
 */
export const pgEvent = <Detail>(type: string, detail: Detail, cancelable = false) =>
  new CustomEvent<Detail>(type, { detail, bubbles: true, composed: true, cancelable });
