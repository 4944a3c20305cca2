package edu.rice.cs.hpcdata.experiment.scope;

/** Stand-in (tests only). */
public enum RootScopeType { CallingContextTree }
