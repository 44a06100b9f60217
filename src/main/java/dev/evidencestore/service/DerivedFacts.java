package dev.evidencestore.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.preview.Disagreement;
import dev.evidencestore.preview.Fact;
import dev.evidencestore.preview.Facts;

import java.io.UncheckedIOException;

/**
 * The {@code derived} member of an artifact's JSON: which parser read the bytes, how many of them, the facts it read
 * by name, the declared capture details the bytes do not bear out, and why the parser gave up, if it did.
 */
final class DerivedFacts {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DerivedFacts() {
    }

    static String json(String parser, ArtifactPreview preview) {
        ObjectNode derived = JSON.createObjectNode();
        derived.put("parser", parser);
        derived.put("readBytes", preview.readBytes());
        derived.put("complete", !preview.truncated());
        Facts facts = preview.shown().preview().facts();
        ObjectNode read = derived.putObject("facts");
        for (Fact fact : facts.facts()) {
            ArrayNode values = read.putArray(fact.name());
            fact.values().forEach(values::add);
        }
        ArrayNode disagreements = derived.putArray("disagreements");
        for (Disagreement disagreement : facts.disagreements()) {
            disagreements.addObject().put("capture", disagreement.capture()).put("declared", disagreement.declared())
                    .put("found", disagreement.found());
        }
        derived.put("fallback", preview.shown().fallback());
        try {
            return JSON.writeValueAsString(derived);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
