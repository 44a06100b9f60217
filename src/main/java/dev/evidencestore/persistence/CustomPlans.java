package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.Panache;

/**
 * Plans for the statements of one transaction made for their parameters each time they run. The driver prepares a
 * statement on the server after a few uses, and PostgreSQL may then keep one generic plan for it, made while the
 * tables were small (a scan of the whole table) and kept as they grow: without autovacuum no ANALYZE replans it.
 */
public final class CustomPlans {

    private CustomPlans() {
    }

    /** From here to the end of the current transaction. */
    public static void forThisTransaction() {
        Panache.getEntityManager().createNativeQuery("SET LOCAL plan_cache_mode = force_custom_plan").executeUpdate();
    }
}
