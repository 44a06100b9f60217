package dev.evidencestore.preview;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SourceUnavailableTest {

    private final SourceUnavailable unavailable = new SourceUnavailable();

    @Test
    void theDemoRecordSaysWhyWhatWasAttemptedAndWhatWasDoneInstead() throws Unreadable {
        UnavailablePreview preview = (UnavailablePreview) unavailable.read(
                Fixtures.subject("application/json", "intercom", "source-unavailable",
                        "{\"result\": \"connector-not-configured\"}"),
                Fixtures.whole(Fixtures.DEMO + "intercom-readiness.json"));
        assertEquals("intercom", preview.source());
        assertEquals("The Intercom connector is not configured for this workspace; customer reports were assessed "
                + "from the stored incident records instead.", preview.reason());
        assertEquals("intercom conversations.search", preview.operation());
        assertEquals("connector-not-configured", preview.result());
        assertEquals("no credentials or app installation are recorded for connector intercom", preview.detail());
        assertEquals("Assessed from stored incident records. Customer reports linked to the incident by responders "
                + "were used; an automated search of all support conversations was not possible, so completeness "
                + "is not asserted.", preview.fallback());
        assertEquals(List.of("unavailableSource", "reason", "attempted", "result", "checkedAt"),
                preview.facts().facts().stream().map(Fact::name).toList());
        assertEquals(List.of(), preview.facts().disagreements());
    }

    @Test
    void flagsARecordAboutAnotherSourceOrWithAnotherResult() throws Unreadable {
        UnavailablePreview preview = (UnavailablePreview) unavailable.read(
                Fixtures.subject("application/json", "zendesk", "source-unavailable", "{\"result\": \"timeout\"}"),
                Fixtures.whole(Fixtures.DEMO + "intercom-readiness.json"));
        assertEquals(List.of(new Disagreement("source", "zendesk", "the record is about intercom"),
                new Disagreement("result", "timeout", "the attempt's result is connector-not-configured")),
                preview.facts().disagreements());
    }

    @Test
    void jsonWithoutAReasonOrAttemptIsRefused() {
        byte[] json = "{\"source\": \"intercom\"}".getBytes();
        assertThrows(Unreadable.class, () -> unavailable.read(
                Fixtures.subject("application/json", "intercom", "source-unavailable", null),
                new Prefix(json, json.length)));
    }
}
