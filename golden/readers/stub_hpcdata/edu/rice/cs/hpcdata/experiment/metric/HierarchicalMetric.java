package edu.rice.cs.hpcdata.experiment.metric;

/** Stand-in (tests only). */
public class HierarchicalMetric extends BaseMetric {
    public HierarchicalMetric(int index, String name, String type) { super(index, name, type); }

    public String getVariantLabel() { return "Sum"; }
}
