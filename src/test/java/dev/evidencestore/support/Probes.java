package dev.evidencestore.support;

import io.restassured.RestAssured;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What monitoring sees, read the way it reads it: without a token. */
public final class Probes {

    private Probes() {
    }

    /** The value of an untagged Prometheus metric at {@code /q/metrics}. */
    public static double metric(String name) {
        String exposition = RestAssured.given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*})? (\\S+)$").matcher(exposition);
        if (!sample.find()) {
            throw new AssertionError("no metric " + name + " at /q/metrics");
        }
        return Double.parseDouble(sample.group(1));
    }

    /** The named readiness check as {@code /q/health/ready} reports it. */
    public static Map<String, Object> readiness(String check) {
        return RestAssured.given().get("/q/health/ready").then().extract().jsonPath()
                .getMap("checks.find { it.name == '" + check + "' }");
    }
}
