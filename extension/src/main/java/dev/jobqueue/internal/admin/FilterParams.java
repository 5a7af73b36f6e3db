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

    /**
     * The filter for FAILED jobs only, for an action on every job that matches. A {@code state} parameter is
     * refused rather than ignored, and so is a parameter that is given but blank: a listing reads it as no filter,
     * but an action would then retry or delete every FAILED job.
     */
    JobFilter failedFilter() {
        if (state != null && !state.isBlank()) {
            throw new BadRequest("this request acts on FAILED jobs only, and takes no state parameter");
        }
        String[][] given = {{"queue", queue}, {"id", id}, {"dedupeKey", dedupeKey}, {"orderingKey", orderingKey},
            {"group", group}};
        for (String[] parameter : given) {
            if (parameter[1] != null && parameter[1].isBlank()) {
                throw new BadRequest(parameter[0] + " is blank; leave it out to act on FAILED jobs of any "
                        + parameter[0]);
            }
        }
        return AdminParams.filter(queue, null, id, dedupeKey, orderingKey, group).failed();
    }
}
