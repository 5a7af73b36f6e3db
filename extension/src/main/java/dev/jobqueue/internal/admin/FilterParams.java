package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.store.JobFilter;
import jakarta.ws.rs.QueryParam;

/** The query parameters that filter jobs in the admin API's listings, counts and bulk actions; each optional. */
public class FilterParams {

    @QueryParam("queue")
    String queue;

    @QueryParam("state")
    String state;

    @QueryParam("id")
    String id;

    @QueryParam("dedupeKey")
    String dedupeKey;

    @QueryParam("orderingKey")
    String orderingKey;

    @QueryParam("group")
    String group;

    /** The filter, checked; a bad parameter throws {@link BadRequest} naming it. */
    JobFilter filter() {
        return AdminParams.filter(queue, state, id, dedupeKey, orderingKey, group);
    }

    /** The filter for FAILED jobs only; a {@code state} parameter is refused rather than ignored. */
    JobFilter failedFilter() {
        if (state != null && !state.isBlank()) {
            throw new BadRequest("this request acts on FAILED jobs only, and takes no state parameter");
        }
        return AdminParams.filter(queue, null, id, dedupeKey, orderingKey, group).failed();
    }
}
