/// Direction of an order.
public enum OrderSide: String, Sendable, Codable { case buy, sell }
