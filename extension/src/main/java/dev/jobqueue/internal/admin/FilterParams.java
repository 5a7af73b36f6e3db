package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.store.JobFilter;
import dev.jobqueue.internal.store.JobState;
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

    /**
     * The filter for an action on every job that matches and has not started, a cancel: at least one parameter,
     * none blank, so that a forgotten parameter cannot cancel every job of every queue; a {@code state}, if given,
     * PENDING or WAITING.
     */
    JobFilter unstartedFilter() {
        JobFilter filter = AdminParams.filter(queue, state, id, dedupeKey, orderingKey, group);
        String[][] given = {{"queue", queue}, {"state", state}, {"id", id}, {"dedupeKey", dedupeKey},
            {"orderingKey", orderingKey}, {"group", group}};
        for (String[] parameter : given) {
            if (parameter[1] != null && parameter[1].isBlank()) {
                throw new BadRequest(parameter[0] + " is blank; leave it out to act on jobs of any " + parameter[0]);
            }
        }
        if (filter.state() != null && filter.state() != JobState.PENDING && filter.state() != JobState.WAITING) {
            throw new BadRequest("a cancel takes PENDING or WAITING jobs only, not " + filter.state());
        }
        if (queue == null && id == null && dedupeKey == null && orderingKey == null && group == null) {
            throw new BadRequest("a cancel by filter needs queue, id, dedupeKey, orderingKey or group");
        }
        return filter;
    }

    /** A filter as the action log names it: {@code FAILED jobs where queue=email group=g}. */
    static String describe(JobFilter filter) {
        StringBuilder where = new StringBuilder((filter.state() == null ? "unstarted" : filter.state()) + " jobs");
        String[][] fields = {{"queue", filter.queue()}, {"id", filter.id()}, {"dedupeKey", filter.dedupeKey()},
            {"orderingKey", filter.orderingKey()}, {"group", filter.group()}};
        String joiner = " where ";
        for (String[] field : fields) {
            if (field[1] != null) {
                where.append(joiner).append(field[0]).append('=').append(field[1]);
                joiner = " ";
            }
        }
        return where.toString();
    }
}
