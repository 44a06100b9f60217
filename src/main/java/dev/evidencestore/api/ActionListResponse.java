package dev.evidencestore.api;

import java.util.List;

/** The actions of one incident, soonest due first. */
public record ActionListResponse(List<ActionResponse> items) {
}
