package dev.evidencestore.api;

import dev.evidencestore.http.RequestPipeline;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.List;

/**
 * Serves the contract, {@code openapi/openapi.yaml} as packaged, at {@code /q/openapi}: as YAML, or as JSON when the
 * path ends in {@code .json}, the {@code Accept} header asks for {@code application/json} or {@code ?format=json}
 * does (the negotiation of SmallRye OpenAPI's endpoint, which this replaces; Swagger UI reads the document here).
 * SmallRye built its document at every start from the same file, a fifth of the time to ready, and served a model
 * of it that lost a {@code nullable} branch and gained a security scheme the service does not use; this serves the
 * committed bytes, read on first use.
 */
@ApplicationScoped
public class ContractRoute {

    static final String PATH = "/q/openapi";
    private static final String YAML = "application/yaml;charset=UTF-8";
    private static final String JSON = "application/json;charset=UTF-8";

    private final ContractDocument document = new ContractDocument();

    void onRouter(@Observes Router router) {
        for (String path : List.of(PATH, PATH + ".yaml", PATH + ".yml", PATH + ".json")) {
            router.route(path).method(HttpMethod.GET).method(HttpMethod.HEAD).order(RequestPipeline.CONTRACT)
                    .blockingHandler(this::serve, false);
        }
    }

    private void serve(RoutingContext context) {
        boolean json = wantsJson(context);
        byte[] body = json ? document.json() : document.yaml();
        context.response()
                .putHeader(HttpHeaders.CONTENT_TYPE, json ? JSON : YAML)
                .putHeader(HttpHeaders.VARY, "Accept")
                .end(Buffer.buffer(body));
    }

    static boolean wantsJson(RoutingContext context) {
        String path = context.normalizedPath();
        if (path.endsWith(".json") || path.endsWith(".yaml") || path.endsWith(".yml")) {
            return path.endsWith(".json");
        }
        String accept = context.request().getHeader(HttpHeaders.ACCEPT);
        return (accept != null && accept.contains("application/json"))
                || context.queryParam("format").stream().findFirst().filter("json"::equalsIgnoreCase).isPresent();
    }
}
