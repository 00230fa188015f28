# An os-ken application for osken_packet_in.sh: it answers every
# PACKET_IN with a PACKET_OUT naming its buffer id (flood), what sbsim's
# --packet-in counts as the controller's answer, and installs the
# table-miss flow (priority 0, to the controller) as Ryu's and os-ken's
# sample switches do.  Like them it handles PACKET_INs only in
# MAIN_DISPATCHER: after the FEATURES_REPLY and, for OpenFlow 1.3, the
# port description; what comes before is dropped.
#
# A datapath whose id is 1000 or more loses its first PACKET_IN on
# purpose (the test's latency run): the switch must send it again.
from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import CONFIG_DISPATCHER, MAIN_DISPATCHER
from os_ken.controller.handler import set_ev_cls
from os_ken.ofproto import ofproto_v1_0, ofproto_v1_3

DROP_FIRST_FROM = 1000


class PacketInAnswer(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_3.OFP_VERSION, ofproto_v1_0.OFP_VERSION]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen = set()

    @set_ev_cls(ofp_event.EventOFPSwitchFeatures, CONFIG_DISPATCHER)
    def features(self, ev):
        dp = ev.msg.datapath
        ofp, parser = dp.ofproto, dp.ofproto_parser
        self.seen.discard(dp.id)
        if ofp.OFP_VERSION != ofproto_v1_3.OFP_VERSION:
            return
        actions = [parser.OFPActionOutput(ofp.OFPP_CONTROLLER,
                                          ofp.OFPCML_NO_BUFFER)]
        inst = [parser.OFPInstructionActions(ofp.OFPIT_APPLY_ACTIONS,
                                             actions)]
        dp.send_msg(parser.OFPFlowMod(datapath=dp, priority=0,
                                      match=parser.OFPMatch(),
                                      instructions=inst))

    @set_ev_cls(ofp_event.EventOFPPacketIn, MAIN_DISPATCHER)
    def packet_in(self, ev):
        msg = ev.msg
        dp = msg.datapath
        ofp, parser = dp.ofproto, dp.ofproto_parser
        if dp.id >= DROP_FIRST_FROM and dp.id not in self.seen:
            self.seen.add(dp.id)
            return
        if ofp.OFP_VERSION == ofproto_v1_3.OFP_VERSION:
            in_port = msg.match['in_port']
        else:
            in_port = msg.in_port
        data = None if msg.buffer_id != ofp.OFP_NO_BUFFER else msg.data
        dp.send_msg(parser.OFPPacketOut(
            datapath=dp, buffer_id=msg.buffer_id, in_port=in_port,
            actions=[parser.OFPActionOutput(ofp.OFPP_FLOOD)], data=data))
