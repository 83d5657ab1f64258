import { RequestError } from "../client/errors";

/** How a listing names what it lists, in the messages of one whose pages disagree. */
export interface ListingNoun {
  item: string;
  items: string;
  /** The listing as a whole: `the organization's key listing`. */
  listing: string;
}

const RECORDS: ListingNoun = { item: "record", items: "records", listing: "the listing" };

/** What {@link InconsistentListingError} says about the listing it gave up on. */
export interface InconsistentListingErrorInit {
  /** The listing's path below the API root, `/orgs/{ORG-ID}/apiKeys`. */
  path: string;
  /** The listing's absolute URL, without a page's query. */
  url: string;
  /** How many times the whole listing was read. */
  reads: number;
  /** How the pages of the last read disagreed, e.g. `page 2 said 1,199 keys where page 1 said 1,200`. */
  disagreement: string;
  /** What the listing lists; default records of a listing. */
  noun?: ListingNoun;
  /** Whether two reads in a row had to agree and list the same ids. Default false. */
  sameTwice?: boolean;
}

/**
 * A listing whose pages disagreed on every read, or (where two reads must agree) that never gave the
 * same ids twice in a row (code `OM_ERR_INCONSISTENT_LISTING`): records were added or deleted meanwhile,
 * so a record could have been on no page or on two. No record is taken to be gone on its word.
 *
 * @example
 * `GET /orgs/5f1…/apiKeys: the organization's key listing kept changing while it was read (read 3 times; …)`
 */
export class InconsistentListingError extends RequestError {
  readonly reads: number;
  readonly disagreement: string;

  constructor(init: InconsistentListingErrorInit) {
    const noun = init.noun ?? RECORDS;
    const items = noun.items.charAt(0).toUpperCase() + noun.items.slice(1);
    super(
      "OM_ERR_INCONSISTENT_LISTING",
      `GET ${init.path}: ${noun.listing} kept changing while it was read ` +
        `(read ${init.reads} times, ${
          init.sameTwice
            ? `without two reads in a row whose pages agreed and listed the same ${noun.items}`
            : "and each time its pages disagreed"
        }; last: ${init.disagreement}). ` +
        `${items} were being added or deleted meanwhile, so a ${noun.item} could have been on no page or on two, and the ` +
        "listing was not used. Run the command again once those changes have stopped",
      { method: "GET", path: init.path, url: init.url },
    );
    this.name = "InconsistentListingError";
    this.reads = init.reads;
    this.disagreement = init.disagreement;
  }
}
