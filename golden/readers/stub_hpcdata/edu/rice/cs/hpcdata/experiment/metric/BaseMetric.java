package edu.rice.cs.hpcdata.experiment.metric;

/** Stand-in (tests only): a metric as ViewerBatch.java prints it. */
public class BaseMetric {
    private final int index;
    private final String name, type;

    public BaseMetric(int index, String name, String type) { this.index = index; this.name = name; this.type = type; }

    public int getIndex() { return index; }
    public String getDisplayName() { return name; }
    public String getMetricType() { return type; }
    public int getPartner() { return -1; }
}
