package dev.evidencestore.http;

import jakarta.ws.rs.Priorities;

/**
 * The stages every request passes, in the order they run, and the one place their router orders and filter
 * priorities are set. Each stage names its constant here; nothing else in the service picks an order.
 *
 * <ol>
 *     <li>{@link UndecodableRequests}: before any handler, a request Vert.x could not decode, or whose target is not
 *     a URI, is answered by {@link HttpLayerRefusals} (problem+json, connection closed).</li>
 *     <li>{@link AdmissionControl} ({@link #ADMISSION}): the router's first handler. Refusing a burst must cost
 *     nothing, so it runs before Quarkus's authentication (route order -200) verifies a token and before JAX-RS:
 *     slots by {@link RequestKind}, a cap per client address, and the memory of the request's body.</li>
 *     <li>{@code HeldContentRoute} ({@link #HELD_CONTENT_KNOWN}): a GET of an artifact's content held in memory, from
 *     a client known without authentication (no {@code Authorization} header, or one authentication already resolved
 *     and whose token has not expired), is answered here, after the same workspace decision and per-principal cap as
 *     below; anything else goes on.</li>
 *     <li>Quarkus's authentication, then {@link AuthFailureRouting} ({@link #AUTH_FAILURE_ROUTING}), which hands a
 *     failed authentication to JAX-RS without Quarkus REST's template lookup per request; then routing into JAX-RS.
 *     {@link HttpLayerRefusals} ({@link #ROUTER_FAILURES}) answers what fails on the way, ahead of Quarkus's own
 *     error page.</li>
 *     <li>{@code HeldContentRoute} ({@link #HELD_CONTENT}): a GET of an artifact's content whose bytes, artifact and
 *     damage status are all in memory is answered here, on the event loop, after the same workspace decision and
 *     per-principal cap as below; anything else goes on to JAX-RS.</li>
 *     <li>{@link UnauthenticatedWrites} ({@link #UNAUTHENTICATED_WRITES}), a pre-matching filter: before a resource
 *     is chosen and its role checks run, a write without a valid bearer token beyond its client address's rate is
 *     answered 429, and counted in one aggregate audit entry.</li>
 *     <li>{@link FormBodies} ({@link #FORM_BODIES}): on byte or bodiless writes, the content types a form on another
 *     site can send are refused, as a {@code @Consumes} refuses others.</li>
 *     <li>{@link WorkspaceGate} ({@link #WORKSPACE_GATE}): who may touch which workspace, on the decoded path.</li>
 *     <li>{@link PrincipalCap} ({@link #PRINCIPAL_CAP}): the requests one principal may have in progress; it needs the
 *     identity the gate resolved, and counts only requests the gate lets through, before any key is claimed.</li>
 *     <li>{@link IdempotencyFilter#claim} ({@link #IDEMPOTENCY_CLAIM}): after the gate, so only requests it lets
 *     through, from a known principal, claim an {@code Idempotency-Key}; a replay answers here.</li>
 *     <li>The resource method, its parameters converted by {@link TypedParameters}; exceptions become problem
 *     documents in {@link ProblemMapper}.</li>
 *     <li>Response filters run from the highest priority down. {@link AuditFilter} ({@link #AUDIT}) first: it reads
 *     the answer's entity as the resource made it (the problem's type), and a replay by its
 *     {@code Idempotent-Replayed} header.</li>
 *     <li>{@link IdempotencyFilter#settle} ({@link #IDEMPOTENCY_SETTLE}): after the audit, it replaces the entity by
 *     its bytes, so what is sent and what is stored for retries are the same bytes.</li>
 *     <li>The pages' error filter ({@link #PAGES}): last, it turns a problem into an HTML page for a browser, after
 *     audit and idempotency have seen the problem document.</li>
 * </ol>
 */
public final class RequestPipeline {

    /** Router order of admission control: ahead of Quarkus's HTTP security, which authenticates at -200. */
    public static final int ADMISSION = -1000;
    /**
     * Router order of the reads answered from memory for a client known without authentication (anonymous, or a
     * bearer header authentication already resolved): after admission, before authentication (-200).
     */
    public static final int HELD_CONTENT_KNOWN = -500;
    /**
     * Router order of {@link AuthFailureRouting}: that of Quarkus's authentication, added after it, so it runs right
     * after authentication has left its failure handler and before Quarkus REST's filter (order -199) reads it.
     */
    public static final int AUTH_FAILURE_ROUTING = -200;
    /**
     * Router order of reading a short body ahead ({@link ShortBodies}): after authentication, so a failed one is
     * routed first, before JAX-RS's own route.
     */
    public static final int SHORT_BODIES = -100;
    /**
     * Router order of the reads answered from memory: after authentication (-200) has set up the deferred identity,
     * before JAX-RS's own route.
     */
    public static final int HELD_CONTENT = 1000;
    /** Router order of the contract at {@code /q/openapi}: after authentication, as every other {@code /q/} path. */
    public static final int CONTRACT = 1000;
    /** Router order of the failure handler for what fails below JAX-RS: ahead of every other failure handler. */
    public static final int ROUTER_FAILURES = Integer.MIN_VALUE;
    /**
     * JAX-RS pre-matching request filter priority of the limit on unauthenticated writes: the only pre-matching
     * filter, before routing and the role checks, so that a flood beyond the rate costs no more than a counter.
     */
    public static final int UNAUTHENTICATED_WRITES = Priorities.USER - 200;
    /**
     * JAX-RS request filter priority of refusing form bodies: first, as the 415s of {@code @Consumes} come before
     * any filter.
     */
    public static final int FORM_BODIES = Priorities.USER - 100;
    /** JAX-RS request filter priority of the workspace gate: after the form bodies. */
    public static final int WORKSPACE_GATE = Priorities.USER;
    /** JAX-RS request filter priority of the per-principal cap: after the workspace gate, before the claim. */
    public static final int PRINCIPAL_CAP = Priorities.USER + 50;
    /** JAX-RS request filter priority of the idempotency claim: after the per-principal cap. */
    public static final int IDEMPOTENCY_CLAIM = Priorities.USER + 100;
    /** JAX-RS response filter priority of the audit filter: the first response filter to run. */
    public static final int AUDIT = Priorities.USER;
    /** JAX-RS response filter priority of storing the answer for retries: after the audit filter. */
    public static final int IDEMPOTENCY_SETTLE = Priorities.USER - 100;
    /** JAX-RS response filter priority of the pages' HTML error filter: the last response filter. */
    public static final int PAGES = Priorities.USER - 200;

    private RequestPipeline() {
    }
}
